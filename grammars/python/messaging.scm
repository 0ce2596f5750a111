; Message publishing and subscribing.  `topic` is the literal topic/queue/subject/channel, or the
; expression text when it is not a literal; `technology` is set by the pattern.

; kafka-python / aiokafka: producer.send("topic", value)
((call function: (attribute object: (_) @_obj attribute: (identifier) @_fn) arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)producer$") (#any-of? @_fn "send" "send_and_wait")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; confluent-kafka: producer.produce("topic", value) / p.produce(...) ("produce" is Kafka's verb)
((call function: (attribute attribute: (identifier) @_fn) arguments: (argument_list . (_) @topic)) @fact
 (#eq? @_fn "produce")
 (#set! fact "messaging.publish") (#set! technology "kafka"))

; KafkaConsumer("topic", bootstrap_servers=...) / AIOKafkaConsumer("topic", ...)
((call function: [(identifier) @_cls (attribute attribute: (identifier) @_cls)] arguments: (argument_list . (string) @topic)) @fact
 (#any-of? @_cls "KafkaConsumer" "AIOKafkaConsumer")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; confluent-kafka / kafka-python: consumer.subscribe(["topic", ...])
((call function: (attribute object: (_) @_obj attribute: (identifier) @_fn) arguments: (argument_list . (list . (_) @topic))) @fact
 (#match? @_obj "(?i)consumer$") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))

; pika: channel.basic_publish(exchange="", routing_key="queue", body=...).  RabbitMQ topic = the
; exchange when one is named (routing_key kept as an attribute), else the routing key (= queue).
((call function: (attribute attribute: (identifier) @_fn)
       arguments: (argument_list
         (keyword_argument name: (identifier) @_ek value: (string) @_ex)
         (keyword_argument name: (identifier) @_kw value: (_) @topic))) @fact
 (#eq? @_fn "basic_publish") (#eq? @_ek "exchange") (#match? @_ex "^(''|\"\")$") (#eq? @_kw "routing_key")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
((call function: (attribute attribute: (identifier) @_fn)
       arguments: (argument_list
         (keyword_argument name: (identifier) @_ek value: (_) @topic)
         (keyword_argument name: (identifier) @_kw value: (_) @routing_key))) @fact
 (#eq? @_fn "basic_publish") (#eq? @_ek "exchange") (#not-match? @topic "^(''|\"\")$") (#eq? @_kw "routing_key")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
; positional: channel.basic_publish("", "queue", body)
((call function: (attribute attribute: (identifier) @_fn)
       arguments: (argument_list . (string) @_ex . (_) @topic)) @fact
 (#eq? @_fn "basic_publish") (#match? @_ex "^(''|\"\")$")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))

; pika: channel.basic_consume(queue="queue", on_message_callback=...)
((call function: (attribute attribute: (identifier) @_fn)
       arguments: (argument_list (keyword_argument name: (identifier) @_kw value: (_) @topic))) @fact
 (#eq? @_fn "basic_consume") (#eq? @_kw "queue")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))

; nats-py: await nc.publish("subject", data) / await nc.subscribe("subject", cb=...)
((call function: (attribute object: (_) @_obj attribute: (identifier) @_fn) arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)(^nc$|^js$|nats|jetstream)") (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! technology "nats"))
((call function: (attribute object: (_) @_obj attribute: (identifier) @_fn) arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)(^nc$|^js$|nats|jetstream)") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "nats"))

; redis-py pub/sub: r.publish("channel", msg) / pubsub.subscribe("channel")
((call function: (attribute object: (_) @_obj attribute: (identifier) @_fn) arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)(redis|^r$|cache|pubsub|^ps$|^p$)") (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! technology "redis"))
((call function: (attribute object: (_) @_obj attribute: (identifier) @_fn) arguments: (argument_list . (_) @topic)) @fact
 (#match? @_obj "(?i)(redis|^r$|pubsub|^ps$|^p$)") (#any-of? @_fn "subscribe" "psubscribe")
 (#set! fact "messaging.subscribe") (#set! technology "redis"))

; boto3 SQS: sqs.send_message(QueueUrl=...) / sqs.receive_message(QueueUrl=...)
((call function: (attribute attribute: (identifier) @_fn)
       arguments: (argument_list (keyword_argument name: (identifier) @_kw value: (_) @topic))) @fact
 (#any-of? @_fn "send_message" "send_message_batch") (#eq? @_kw "QueueUrl")
 (#set! fact "messaging.publish") (#set! technology "sqs"))
((call function: (attribute attribute: (identifier) @_fn)
       arguments: (argument_list (keyword_argument name: (identifier) @_kw value: (_) @topic))) @fact
 (#eq? @_fn "receive_message") (#eq? @_kw "QueueUrl")
 (#set! fact "messaging.subscribe") (#set! technology "sqs"))

; boto3 SNS: sns.publish(TopicArn=..., Message=...)
((call function: (attribute attribute: (identifier) @_fn)
       arguments: (argument_list (keyword_argument name: (identifier) @_kw value: (_) @topic))) @fact
 (#eq? @_fn "publish") (#eq? @_kw "TopicArn")
 (#set! fact "messaging.publish") (#set! technology "sns"))

; A redis client kept in a variable of any name: `events = redis.from_url(...)` / `redis.Redis(...)`.
; Its publish/subscribe calls below carry `client`, and the resolver keeps them only when a
; `client.var` of the same name and file says which technology the variable holds.
((assignment left: (identifier) @name
             right: [(call function: (attribute object: (identifier) @_mod attribute: (identifier) @_ctor))
                     (await (call function: (attribute object: (identifier) @_mod attribute: (identifier) @_ctor)))]) @fact
 (#any-of? @_mod "redis" "aioredis") (#any-of? @_ctor "from_url" "Redis" "StrictRedis")
 (#set! fact "client.var") (#set! technology "redis"))
((call function: (attribute object: (identifier) @client attribute: (identifier) @_fn)
       arguments: (argument_list . (string (string_content) @topic))) @fact
 (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! needs_client "true"))
((call function: (attribute object: (identifier) @client attribute: (identifier) @_fn)
       arguments: (argument_list . (string (string_content) @topic))) @fact
 (#any-of? @_fn "subscribe" "psubscribe")
 (#set! fact "messaging.subscribe") (#set! needs_client "true"))
