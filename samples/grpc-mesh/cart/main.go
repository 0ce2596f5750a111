package main

import (
	"context"
	"log"
	"net"
	"os"

	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc"

	pb "example.com/grpc-mesh/cart/shoppb"
)

type cartServer struct {
	pb.UnimplementedCartServiceServer
	rdb *redis.Client
}

func (s *cartServer) AddItem(ctx context.Context, req *pb.AddItemRequest) (*pb.Empty, error) {
	err := s.rdb.HIncrBy(ctx, "cart:"+req.UserId, req.Item.ProductId, int64(req.Item.Quantity)).Err()
	return &pb.Empty{}, err
}

func (s *cartServer) GetCart(ctx context.Context, req *pb.GetCartRequest) (*pb.Cart, error) {
	items, err := s.rdb.HGetAll(ctx, "cart:"+req.UserId).Result()
	if err != nil {
		return nil, err
	}
	cart := &pb.Cart{UserId: req.UserId}
	for id := range items {
		cart.Items = append(cart.Items, &pb.CartItem{ProductId: id})
	}
	return cart, nil
}

func (s *cartServer) EmptyCart(ctx context.Context, req *pb.EmptyCartRequest) (*pb.Empty, error) {
	return &pb.Empty{}, s.rdb.Del(ctx, "cart:"+req.UserId).Err()
}

func main() {
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR")})
	lis, err := net.Listen("tcp", ":"+os.Getenv("PORT"))
	if err != nil {
		log.Fatal(err)
	}
	s := grpc.NewServer()
	pb.RegisterCartServiceServer(s, &cartServer{rdb: rdb})
	log.Fatal(s.Serve(lis))
}
