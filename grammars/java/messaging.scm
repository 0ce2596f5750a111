; Message publishing and subscribing (Spring Kafka, Spring AMQP, Spring Cloud AWS, Kafka clients).
; `topic` is the literal, or the expression text.

; kafkaTemplate.send("topic", value)
((method_invocation object: (_) @_obj name: (identifier) @_fn arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)kafka") (#eq? @_fn "send")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; new ProducerRecord<>("topic", key, value) (plain Kafka clients)
((object_creation_expression type: [(type_identifier) (generic_type)] @_t arguments: (argument_list . (_) @topic)) @fact
 (#match? @_t "^ProducerRecord")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; @KafkaListener(topics = "t") / (topics = {"a", "b"}) (first topic)
((annotation name: (identifier) @_a
   arguments: (annotation_argument_list
     (element_value_pair key: (identifier) @_k value: [(string_literal) @topic (element_value_array_initializer . (_) @topic) (identifier) @topic (field_access) @topic]))) @fact
 (#eq? @_a "KafkaListener") (#eq? @_k "topics")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; consumer.subscribe(List.of("t")) / Arrays.asList("t") / Collections.singletonList("t")
((method_invocation object: (_) @_obj name: (identifier) @_fn
   arguments: (argument_list . (method_invocation arguments: (argument_list . (_) @topic)))) @fact
 (#match? @_obj "(?i)consumer") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; @RabbitListener(queues = "q") / (queues = {"q"})
((annotation name: (identifier) @_a
   arguments: (annotation_argument_list
     (element_value_pair key: (identifier) @_k value: [(string_literal) @topic (element_value_array_initializer . (_) @topic) (identifier) @topic (field_access) @topic]))) @fact
 (#eq? @_a "RabbitListener") (#eq? @_k "queues")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))

; rabbitTemplate.convertAndSend("exchange", "routingKey", msg): topic = exchange
((method_invocation object: (_) @_obj name: (identifier) @_fn arguments: (argument_list . (_) @topic . (_) @routing_key . (_))) @fact
 (#match? @_obj "(?i)(rabbit|amqp)") (#any-of? @_fn "convertAndSend" "send")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
; rabbitTemplate.convertAndSend("queue", msg): default exchange, topic = routing key (queue)
((method_invocation object: (_) @_obj name: (identifier) @_fn arguments: (argument_list . (_) @topic . (_) .)) @fact
 (#match? @_obj "(?i)(rabbit|amqp)") (#any-of? @_fn "convertAndSend" "send")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))

; Spring Cloud AWS: @SqsListener("queue") / sqsTemplate.send("queue", msg)
((annotation name: (identifier) @_a arguments: (annotation_argument_list . [(string_literal) (element_value_pair value: (_))] @topic)) @fact
 (#eq? @_a "SqsListener")
 (#set! fact "messaging.subscribe") (#set! technology "sqs"))
((method_invocation object: (_) @_obj name: (identifier) @_fn arguments: (argument_list . (_) @topic . (_))) @fact
 (#match? @_obj "(?i)sqs") (#eq? @_fn "send")
 (#set! fact "messaging.publish") (#set! technology "sqs"))
