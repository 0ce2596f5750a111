; Message publishing and subscribing (php-amqplib, Laravel Redis, rdkafka).

; php-amqplib: $channel->basic_publish($msg, 'exchange', 'routing_key'); '' = default exchange
((member_call_expression name: (name) @_fn
   arguments: (arguments . (argument) . (argument (string) @_ex) . (argument (_) @topic))) @fact
 (#eq? @_fn "basic_publish") (#eq? @_ex "''")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
((member_call_expression name: (name) @_fn
   arguments: (arguments . (argument) . (argument (_) @topic) . (argument (_) @routing_key))) @fact
 (#eq? @_fn "basic_publish") (#not-match? @topic "^(''|\"\")$")
 (#set! fact "messaging.publish") (#set! technology "rabbitmq"))
; $channel->basic_consume('queue', ...)
((member_call_expression name: (name) @_fn arguments: (arguments . (argument (_) @topic))) @fact
 (#eq? @_fn "basic_consume")
 (#set! fact "messaging.subscribe") (#set! technology "rabbitmq"))

; Redis::publish('channel', $msg) / Redis::subscribe(['channel'], fn)
((scoped_call_expression scope: (name) @_r name: (name) @_fn arguments: (arguments . (argument (_) @topic))) @fact
 (#eq? @_r "Redis") (#eq? @_fn "publish")
 (#set! fact "messaging.publish") (#set! technology "redis"))
((scoped_call_expression scope: (name) @_r name: (name) @_fn
   arguments: (arguments . (argument [(array_creation_expression . (array_element_initializer (_) @topic)) (string) @topic]))) @fact
 (#eq? @_r "Redis") (#any-of? @_fn "subscribe" "psubscribe")
 (#set! fact "messaging.subscribe") (#set! technology "redis"))

; php-rdkafka: $producer->newTopic('t') / $consumer->subscribe(['t'])
((member_call_expression object: (variable_name) @_obj name: (name) @_fn arguments: (arguments . (argument (_) @topic))) @fact
 (#match? @_obj "(?i)producer|kafka") (#eq? @_fn "newTopic")
 (#set! fact "messaging.publish") (#set! technology "kafka"))
((member_call_expression object: (variable_name) @_obj name: (name) @_fn
   arguments: (arguments . (argument (array_creation_expression . (array_element_initializer (_) @topic))))) @fact
 (#match? @_obj "(?i)consumer|kafka") (#eq? @_fn "subscribe")
 (#set! fact "messaging.subscribe") (#set! technology "kafka"))
