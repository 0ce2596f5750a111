; Remote procedure calls through an interface: one process obtains a proxy of an interface
; (`Clients.withService(IAlertOperator.class)`, `retrofit.create(Api.class)`,
; `Feign.builder().target(Api.class, url)`, `factory.getProxy(Api.class)`), another process has the class
; implementing that interface (`class AlertOperatorImpl implements IAlertOperator`).  The resolver joins
; the two by the interface's name (rule process.rpc-interfaces).

; Clients.withService(IAlertOperator.class) / create(Api.class) / getProxy(Api.class) / refer(Api.class)
; The evidence line is the class literal's (the line of the call that names the interface).
((method_invocation
   name: (identifier) @method
   arguments: (argument_list . (class_literal (type_identifier) @interface) @fact))
 (#match? @method "^(withService|forService|create|createProxy|newProxy|newProxyInstance|getProxy|proxy|proxyOf|createClient|newClient|getClient|clientOf|client|createStub|newStub|stub|getStub|remote|getRemote|refer|reference|lookup|target|serviceProxy|getService)$")
 (#set! fact "rpc.proxy"))

; class AlertOperatorImpl implements IAlertOperator, Closeable
((class_declaration
   name: (identifier) @class
   interfaces: (super_interfaces (type_list [(type_identifier) @interface
                                             (generic_type (type_identifier) @interface)])) @fact)
 (#set! fact "code.implements"))

; A field, variable or parameter named for an address: `private String namesrvAddr;`,
; `String brokerAddr = route(topic);`, `void register(String masterAddress)`.  The resolver keeps the
; names that join another running component's name to the address word (rule rpc.named-addresses).
((variable_declarator name: (identifier) @name) @fact
 (#match? @name "(?i)(addr|address|addresses|addrs)(list|set|table|s)?$")
 (#set! fact "code.address_name"))
((formal_parameter name: (identifier) @name) @fact
 (#match? @name "(?i)(addr|address|addresses|addrs)(list|set|table|s)?$")
 (#set! fact "code.address_name"))

; Where a server listens, from its own code: `nettyServerConfig.setListenPort(9876)`,
; `new ServerSocket(9876)`, `new InetSocketAddress(9876)` (any local address), `int listenPort = 9876`.
; Rule rpc.listen-port-addresses joins these ports with loopback addresses other programs hold.
((method_invocation name: (identifier) @_m arguments: (argument_list . (decimal_integer_literal) @port .)) @fact
 (#match? @_m "^(setListenPort|setServerPort|setBindPort|setRpcPort)$")
 (#set! fact "server.listen_port"))
((object_creation_expression type: (type_identifier) @_t arguments: (argument_list . (decimal_integer_literal) @port .)) @fact
 (#any-of? @_t "ServerSocket" "InetSocketAddress")
 (#set! fact "server.listen_port"))
((variable_declarator name: (identifier) @_n value: (decimal_integer_literal) @port) @fact
 (#match? @_n "(?i)^(listen|server|bind|rpc)_?port$")
 (#set! fact "server.listen_port"))

; An RPC framework's injected proxy: a field annotated `@DubboReference` (Apache Dubbo), `@SofaReference`
; (SOFARPC) or `@MotanReferer` (Motan), typed by the interface another process serves (its implementation
; annotated `@DubboService`): `@DubboReference private RemoteUserService remoteUserService;`.
((field_declaration
   (modifiers [(marker_annotation name: (identifier) @_a) (annotation name: (identifier) @_a)])
   type: [(type_identifier) @interface (generic_type (type_identifier) @interface)]) @fact
 (#any-of? @_a "DubboReference" "SofaReference" "MotanReferer")
 (#set! injected "true")
 (#set! fact "rpc.proxy"))
