; Message publishing and subscribing.  `topic` is the literal, or the expression text.

; segmentio/kafka-go: kafka.Writer{Topic: "t"} / kafka.WriterConfig{Topic: "t"} / sarama.ProducerMessage{Topic: "t"}
((composite_literal
   type: (qualified_type name: (type_identifier) @_type)
   body: (literal_value (keyed_element key: (literal_element (identifier) @_k) value: (literal_element (_) @topic)))) @fact
 (#any-of? @_type "Writer" "WriterConfig" "ProducerMessage") (#eq? @_k "Topic")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; kafka-go readers: kafka.NewReader(kafka.ReaderConfig{Topic: "t"})
((composite_literal
   type: (qualified_type name: (type_identifier) @_type)
   body: (literal_value (keyed_element key: (literal_element (identifier) @_k) value: (literal_element (_) @topic)))) @fact
 (#eq? @_type "ReaderConfig") (#any-of? @_k "Topic" "GroupTopics")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; sarama: consumer.ConsumePartition("t", 0, offset) / group.Consume(ctx, []string{"t"}, handler)
((call_expression
   function: (selector_expression field: (field_identifier) @_fn)
   arguments: (argument_list . (_) @topic)) @fact
 (#eq? @_fn "ConsumePartition")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))
((call_expression
   function: (selector_expression field: (field_identifier) @_fn)
   arguments: (argument_list . (_) . (composite_literal body: (literal_value . (literal_element (_) @topic))))) @fact
 (#eq? @_fn "Consume")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; amqp091 / streadway: ch.Publish("exchange", "key", ...) / ch.PublishWithContext(ctx, "exchange", "key", ...)
; RabbitMQ topic = the exchange when named, else the routing key (the queue of the default exchange).
((call_expression
   function: (selector_expression field: (field_identifier) @_fn)
   arguments: (argument_list . (interpreted_string_literal) @_ex . (_) @topic . (_) . (_))) @fact
 (#eq? @_fn "Publish") (#eq? @_ex "\"\"")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
((call_expression
   function: (selector_expression field: (field_identifier) @_fn)
   arguments: (argument_list . (_) @topic . (_) @routing_key . (_) . (_))) @fact
 (#eq? @_fn "Publish") (#not-eq? @topic "\"\"")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
((call_expression
   function: (selector_expression field: (field_identifier) @_fn)
   arguments: (argument_list . (_) . (interpreted_string_literal) @_ex . (_) @topic)) @fact
 (#eq? @_fn "PublishWithContext") (#eq? @_ex "\"\"")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
((call_expression
   function: (selector_expression field: (field_identifier) @_fn)
   arguments: (argument_list . (_) . (_) @topic . (_) @routing_key)) @fact
 (#eq? @_fn "PublishWithContext") (#not-eq? @topic "\"\"")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))

; amqp: ch.Consume("queue", "consumer", autoAck, ...)
((call_expression
   function: (selector_expression field: (field_identifier) @_fn)
   arguments: (argument_list . (_) @topic . (_) . (_) . (_))) @fact
 (#eq? @_fn "Consume") (#not-match? @topic "(?i)ctx|context")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))

; nats.go: nc.Publish("subject", data) / nc.Subscribe("subject", cb) / nc.QueueSubscribe("subject", "q", cb)
((call_expression
   function: (selector_expression operand: (_) @_obj field: (field_identifier) @_fn)
   arguments: (argument_list . (_) @topic . (_) .)) @fact
 (#match? @_obj "(?i)(^nc$|^js$|nats|conn$)") (#eq? @_fn "Publish")
 (#set! fact "messaging.publish") (#set! technology "nats"))
((call_expression
   function: (selector_expression operand: (_) @_obj field: (field_identifier) @_fn)
   arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)(^nc$|^js$|nats|conn$)") (#any-of? @_fn "Subscribe" "QueueSubscribe" "ChanSubscribe")
 (#set! fact "messaging.subscribe") (#set! technology "nats"))

; go-redis: rdb.Publish(ctx, "channel", msg) / rdb.Subscribe(ctx, "channel")
((call_expression
   function: (selector_expression operand: (_) @_obj field: (field_identifier) @_fn)
   arguments: (argument_list . (_) . (_) @topic)) @fact
 (#match? @_obj "(?i)(redis|rdb|^r$|cache)") (#eq? @_fn "Publish")
 (#set! fact "messaging.publish") (#set! technology "redis"))
((call_expression
   function: (selector_expression operand: (_) @_obj field: (field_identifier) @_fn)
   arguments: (argument_list . (_) . (_) @topic)) @fact
 (#match? @_obj "(?i)(redis|rdb|^r$|cache)") (#any-of? @_fn "Subscribe" "PSubscribe")
 (#set! fact "messaging.subscribe") (#set! technology "redis"))
