; Message publishing and subscribing (rdkafka, lapin, async-nats).  `topic` is the literal, or
; the expression text.

; rdkafka: FutureRecord::to("topic") / BaseRecord::to("topic")
((call_expression
   function: (scoped_identifier path: (identifier) @_rec name: (identifier) @_to)
   arguments: (arguments . (_) @topic)) @fact
 (#any-of? @_rec "FutureRecord" "BaseRecord") (#eq? @_to "to")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; rdkafka: consumer.subscribe(&["topic"])
((call_expression
   function: (field_expression value: (_) @_obj field: (field_identifier) @_fn)
   arguments: (arguments . (reference_expression value: (array_expression . (_) @topic)))) @fact
 (#match? @_obj "(?i)consumer") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; lapin: channel.basic_publish("exchange", "routing_key", ...); "" = default exchange (topic = key)
((call_expression
   function: (field_expression field: (field_identifier) @_fn)
   arguments: (arguments . (string_literal) @_ex . (_) @topic)) @fact
 (#eq? @_fn "basic_publish") (#eq? @_ex "\"\"")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
((call_expression
   function: (field_expression field: (field_identifier) @_fn)
   arguments: (arguments . (_) @topic . (_) @routing_key)) @fact
 (#eq? @_fn "basic_publish") (#not-eq? @topic "\"\"")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))

; lapin: channel.basic_consume("queue", "tag", ...)
((call_expression
   function: (field_expression field: (field_identifier) @_fn)
   arguments: (arguments . (_) @topic)) @fact
 (#eq? @_fn "basic_consume")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))

; async-nats: nats_client.publish("subject", payload) / nc.subscribe("subject")
((call_expression
   function: (field_expression value: (_) @_obj field: (field_identifier) @_fn)
   arguments: (arguments . (_) @topic)) @fact
 (#match? @_obj "(?i)(nats|^nc$)") (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! technology "nats"))
((call_expression
   function: (field_expression value: (_) @_obj field: (field_identifier) @_fn)
   arguments: (arguments . (_) @topic)) @fact
 (#match? @_obj "(?i)(nats|^nc$)") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "nats"))
