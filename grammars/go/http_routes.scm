; net/http (Go 1.22 "GET /x" patterns too), gorilla/mux, Gin, Echo, chi:
; http.HandleFunc("/x", h), r.GET("/x", h), e.POST("/x", h), r.Get("/x", h).
((call_expression
   function: (selector_expression field: (field_identifier) @method)
   arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @path . (_))) @fact
 (#any-of? @method "HandleFunc" "Handle" "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS" "Any"
                   "Get" "Post" "Put" "Delete" "Patch" "Head" "Options")
 (#set! fact "http.route") (#set! framework "go-http"))
