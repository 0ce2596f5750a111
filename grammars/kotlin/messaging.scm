; Message publishing and subscribing (Spring Kafka, Spring AMQP).  `topic` is the literal, or the
; expression text.

; kafkaTemplate.send("topic", value)
((call_expression
   (navigation_expression (_) @_obj (identifier) @_fn)
   (value_arguments . (value_argument . (_) @topic))) @fact
 (#match? @_obj "(?i)kafka") (#eq? @_fn "send")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; @KafkaListener(topics = ["t"]) / (topics = "t")
((annotation
   (constructor_invocation
     (user_type (identifier) @_a)
     (value_arguments (value_argument (identifier) @_k . [(string_literal) @topic (collection_literal . (_) @topic)])))) @fact
 (#eq? @_a "KafkaListener") (#eq? @_k "topics")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; @RabbitListener(queues = ["q"])
((annotation
   (constructor_invocation
     (user_type (identifier) @_a)
     (value_arguments (value_argument (identifier) @_k . [(string_literal) @topic (collection_literal . (_) @topic)])))) @fact
 (#eq? @_a "RabbitListener") (#eq? @_k "queues")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))

; rabbitTemplate.convertAndSend("exchange", "key", msg): topic = exchange
((call_expression
   (navigation_expression (_) @_obj (identifier) @_fn)
   (value_arguments . (value_argument . (_) @topic) . (value_argument . (_) @routing_key) . (value_argument))) @fact
 (#match? @_obj "(?i)(rabbit|amqp)") (#eq? @_fn "convertAndSend")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
; rabbitTemplate.convertAndSend("queue", msg): default exchange, topic = routing key
((call_expression
   (navigation_expression (_) @_obj (identifier) @_fn)
   (value_arguments . (value_argument . (_) @topic) . (value_argument) .)) @fact
 (#match? @_obj "(?i)(rabbit|amqp)") (#eq? @_fn "convertAndSend")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
