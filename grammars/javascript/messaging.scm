; Message publishing and subscribing.  `topic` is the literal, or the expression text.

; kafkajs: producer.send({ topic: "orders", messages })
((call_expression
   function: (member_expression object: (_) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (object (pair key: (property_identifier) @_k value: (_) @topic)))) @fact
 (#match? @_obj "(?i)producer$") (#eq? @_fn "send") (#eq? @_k "topic")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; kafkajs: consumer.subscribe({ topic: "orders" }) / ({ topics: ["a", "b"] }) (first topic)
((call_expression
   function: (member_expression object: (_) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (object (pair key: (property_identifier) @_k value: [(array . (_) @topic) (string) @topic (identifier) @topic])))) @fact
 (#match? @_obj "(?i)consumer$") (#eq? @_fn "subscribe") (#any-of? @_k "topic" "topics")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; amqplib: channel.sendToQueue("queue", buf) / channel.publish("exchange", "key", buf)
((call_expression
   function: (member_expression object: (_) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (_) @topic)) @fact
 (#match? @_obj "(?i)(^ch$|chan|channel|amqp|rabbit)") (#any-of? @_fn "sendToQueue" "publish")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))

; amqplib: channel.consume("queue", onMessage)
((call_expression
   function: (member_expression object: (_) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (_) @topic . (_))) @fact
 (#match? @_obj "(?i)(^ch$|chan|channel|amqp|rabbit)") (#eq? @_fn "consume")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))

; nats.js: nc.publish("subject", data) / nc.subscribe("subject")
((call_expression
   function: (member_expression object: (_) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (_) @topic)) @fact
 (#match? @_obj "(?i)(^nc$|^js$|nats|jetstream)") (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! technology "nats"))
((call_expression
   function: (member_expression object: (_) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (_) @topic)) @fact
 (#match? @_obj "(?i)(^nc$|^js$|nats|jetstream)") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "nats"))

; ioredis / node-redis pub/sub: redis.publish("channel", msg) / subscriber.subscribe("channel")
((call_expression
   function: (member_expression object: (_) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (_) @topic)) @fact
 (#match? @_obj "(?i)(redis|pub$|publisher)") (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! technology "redis"))
((call_expression
   function: (member_expression object: (_) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (_) @topic)) @fact
 (#match? @_obj "(?i)(redis|sub$|subscriber)") (#any-of? @_fn "subscribe" "psubscribe")
 (#set! fact "messaging.subscribe") (#set! technology "redis"))

; AWS SDK v3: new SendMessageCommand({ QueueUrl }) / new ReceiveMessageCommand({ QueueUrl }) /
; new PublishCommand({ TopicArn })
((new_expression
   constructor: (identifier) @_cmd
   arguments: (arguments (object (pair key: (property_identifier) @_k value: (_) @topic)))) @fact
 (#any-of? @_cmd "SendMessageCommand" "SendMessageBatchCommand") (#eq? @_k "QueueUrl")
 (#set! fact "messaging.publish") (#set! technology "sqs"))
((new_expression
   constructor: (identifier) @_cmd
   arguments: (arguments (object (pair key: (property_identifier) @_k value: (_) @topic)))) @fact
 (#eq? @_cmd "ReceiveMessageCommand") (#eq? @_k "QueueUrl")
 (#set! fact "messaging.subscribe") (#set! technology "sqs"))
((new_expression
   constructor: (identifier) @_cmd
   arguments: (arguments (object (pair key: (property_identifier) @_k value: (_) @topic)))) @fact
 (#eq? @_cmd "PublishCommand") (#eq? @_k "TopicArn")
 (#set! fact "messaging.publish") (#set! technology "sns"))
