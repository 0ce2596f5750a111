; Message publishing and subscribing (ruby-kafka, bunny, redis).  `topic`: literal or expression.

; ruby-kafka / waterdrop: producer.produce("msg", topic: "t") / kafka.deliver_message("msg", topic: "t")
((call method: (identifier) @_fn arguments: (argument_list (pair key: (hash_key_symbol) @_k value: (_) @topic))) @fact
 (#any-of? @_fn "produce" "produce_async" "produce_sync" "deliver_message") (#eq? @_k "topic")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; ruby-kafka: consumer.subscribe("t")
((call receiver: (_) @_obj method: (identifier) @_fn arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)consumer") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; bunny: channel.queue("q") then .publish / .subscribe; the queue name is the topic
((call receiver: (call method: (identifier) @_q arguments: (argument_list . (_) @topic)) method: (identifier) @_fn) @fact
 (#eq? @_q "queue") (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
((call receiver: (call method: (identifier) @_q arguments: (argument_list . (_) @topic)) method: (identifier) @_fn) @fact
 (#eq? @_q "queue") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))
; bunny: exchange.publish(msg, routing_key: "q")
((call method: (identifier) @_fn arguments: (argument_list (pair key: (hash_key_symbol) @_k value: (_) @topic))) @fact
 (#eq? @_fn "publish") (#eq? @_k "routing_key")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))

; redis-rb: redis.publish("channel", msg) / redis.subscribe("channel")
((call receiver: (_) @_obj method: (identifier) @_fn arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)redis") (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! technology "redis"))
((call receiver: (_) @_obj method: (identifier) @_fn arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)redis") (#any-of? @_fn "subscribe" "psubscribe")
 (#set! fact "messaging.subscribe") (#set! technology "redis"))
