; Platform roles declared by annotations and service-id lookups (Spring Cloud and similar stacks).

; Class-level enabling annotations: @EnableEurekaServer, @EnableConfigServer, @EnableDiscoveryClient,
; @EnableZuulProxy, @EnableTurbine, @EnableHystrixDashboard, @EnableAdminServer, @EnableZipkinServer ...
((class_declaration
   (modifiers [(marker_annotation name: (identifier) @name) (annotation name: (identifier) @name)] @fact))
 (#match? @name "^(Enable[A-Z][A-Za-z]+|SpringBootApplication|EnableDiscoveryClient)$")
 (#set! fact "annotation"))

; Lookups by service id: loadBalancer.choose("orders"), discoveryClient.getInstances("orders"),
; eurekaClient.getNextServerFromEureka("orders", false), getApplication("ORDERS")
((method_invocation
   name: (identifier) @_m
   arguments: (argument_list . (string_literal (string_fragment) @service))) @fact
 (#any-of? @_m "choose" "getInstances" "getNextServerFromEureka" "getApplication" "getInstancesById")
 (#set! fact "service.lookup"))

; A host named by a literal when a URL is built: new Hostname("payment"), new HttpHost("orders", 80),
; builder.host("payment"), uri.setHost("carts"). Only a literal that is the name of a component of the
; system makes a link (see graph/platform.py service_lookups).
((object_creation_expression
   type: (type_identifier) @_t
   arguments: (argument_list . (string_literal (string_fragment) @service))) @fact
 (#match? @_t "^([A-Z][A-Za-z]*)?Host(name)?$")
 (#set! fact "service.lookup"))
((method_invocation
   name: (identifier) @_m
   arguments: (argument_list . (string_literal (string_fragment) @service) .)) @fact
 (#match? @_m "^((set|with)Host(name)?|host(name)?)$")
 (#set! fact "service.lookup"))

; A literal host handed to a call that names a store or broker technology: connectRedis("redis"),
; new RedisClient("redis"), createMongoClient("mongo"). Links only when the literal names a component
; of that technology (graph/platform.py).
((method_invocation
   name: (identifier) @call
   arguments: (argument_list . (string_literal (string_fragment) @service))) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "service.lookup")
 (#set! store_call "true"))

; A plain HTTP call through the Dapr sidecar naming the app it invokes by header:
; headers.add("dapr-app-id", "kitchen-service"), request.header("dapr-app-id", "orders")
((method_invocation
   name: (identifier) @_m
   arguments: (argument_list . (string_literal (string_fragment) @_k) . (string_literal (string_fragment) @service) .)) @fact
 (#match? @_m "^(add|set|header|setHeader|addHeader)$")
 (#eq? @_k "dapr-app-id")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
