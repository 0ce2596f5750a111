module example.com/grpc-mesh/cart

go 1.22

require (
	github.com/redis/go-redis/v9 v9.5.1
	google.golang.org/grpc v1.63.2
	google.golang.org/protobuf v1.33.0
)
