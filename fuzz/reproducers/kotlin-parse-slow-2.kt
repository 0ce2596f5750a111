class Messaging(private val kafkaTemplate: KafkaTemplate<String, String>) {
    fun publish(order: String) {
        kafkaTemplate.send("orders.created", order)
        rabbitTemplate.convertAndSend("orders-exchange", "created", order)
        rabbitTemplate.convertAndSend("emails", order)
   ###     mailer.send("bob@example.com")
 ler {
    @GetMapping("/{id}")
    fun get(@PathVariable id: String) = repo.find(id)

    @PostMapping(value = ["/items"])
    fun add() {}

    @DeleteMapping
    fun clear() {}
}

fun Application.module() {
    routing {
        get("/health") { call.respondText("ok") }
        route("/v1") {
            post("/orders") { }
        }
        val cached = cache.get("/not-a-route")
    }
}
