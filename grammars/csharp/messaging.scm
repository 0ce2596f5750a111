; Message publishing and subscribing (Confluent.Kafka, RabbitMQ.Client).  `topic` is the literal,
; or the expression text.

; producer.ProduceAsync("topic", message) / producer.Produce("topic", message)
((invocation_expression
   function: (member_access_expression expression: (_) @_obj name: (identifier) @_fn)
   arguments: (argument_list . (argument (_) @topic .))) @fact
 (#match? @_obj "(?i)producer") (#any-of? @_fn "ProduceAsync" "Produce")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; consumer.Subscribe("topic")
((invocation_expression
   function: (member_access_expression expression: (_) @_obj name: (identifier) @_fn)
   arguments: (argument_list . (argument (_) @topic .))) @fact
 (#match? @_obj "(?i)consumer") (#eq? @_fn "Subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; channel.BasicPublish(exchange: "", routingKey: "queue", ...): default exchange, topic = routing key
((invocation_expression
   function: (member_access_expression name: (identifier) @_fn)
   arguments: (argument_list
     (argument name: (identifier) @_ek (string_literal) @_ex)
     (argument name: (identifier) @_rk (_) @topic .)))  @fact
 (#any-of? @_fn "BasicPublish" "BasicPublishAsync") (#eq? @_ek "exchange") (#eq? @_ex "\"\"") (#eq? @_rk "routingKey")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
; channel.BasicPublish("exchange", "key", ...) positional, or exchange: "x": topic = exchange
((invocation_expression
   function: (member_access_expression name: (identifier) @_fn)
   arguments: (argument_list . (argument (_) @topic .) . (argument (_) @routing_key .))) @fact
 (#any-of? @_fn "BasicPublish" "BasicPublishAsync") (#not-eq? @topic "\"\"")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))

; channel.BasicConsume(queue: "q", ...) / BasicConsume("q", ...)
((invocation_expression
   function: (member_access_expression name: (identifier) @_fn)
   arguments: (argument_list . (argument (_) @topic .))) @fact
 (#any-of? @_fn "BasicConsume" "BasicConsumeAsync")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))
