; Azure Functions bindings (in-process WebJobs attributes and the isolated worker's *Output
; attributes): `binding` is the attribute's name, `args` its argument list as written (the
; resolver reads the queue/topic/container and `Connection = "..."` from it).
; [QueueTrigger("%OrdersQueue%", Connection = "AzureWebJobsStorage")], [EventGridTrigger],
; [CosmosDB("db", "items", Connection = "CosmosConnection")] out Item item, [SignalR(HubName = "x")].
; Names other libraries use too (Queue, Table, Blob, Sql) count only on a function's parameter.

((parameter (attribute_list (attribute name: (identifier) @binding (attribute_argument_list)? @args) @fact))
 (#match? @binding "^(Queue|Blob|Table|Sql|ServiceBus|EventGrid|EventHub|CosmosDB|SignalR|SignalRConnectionInfo)(Attribute)?$")
 (#set! fact "functions.binding") (#set! verbatim "args"))

((attribute name: (identifier) @binding (attribute_argument_list)? @args) @fact
 (#match? @binding "^((Queue|Blob|ServiceBus|EventGrid|EventHub|CosmosDB|Sql|Timer|RabbitMQ|Kafka|RedisPubSub)Trigger|(Queue|Blob|Table|ServiceBus|EventGrid|EventHub|CosmosDB|SignalR|Sql)Output|SignalRTrigger)(Attribute)?$")
 (#set! fact "functions.binding") (#set! verbatim "args"))

; HTTP triggers are the app's endpoints: [HttpTrigger(AuthorizationLevel.Function, "get", Route = "orders/{id}")]
((attribute name: (identifier) @_t
   (attribute_argument_list
     (attribute_argument (string_literal) @method)
     (attribute_argument (identifier) @_r (string_literal) @path))) @fact
 (#match? @_t "^HttpTrigger(Attribute)?$") (#eq? @_r "Route")
 (#set! fact "http.route") (#set! framework "azure-functions"))
