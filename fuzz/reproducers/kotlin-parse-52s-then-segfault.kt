class Messaging(private val kafkaTemplate: KafkaTemplate<String, String>) {
    fun publish(order: String) {
        kafkaTemplate.send("orders.created/*", order)
        rabbitTemplate.convertAndSend("orders-exchange", "created", order)
    รรรรรรร    rabbitTemplate.convertAndSend("emails", order)
        mailer.send("bob@example.com")
    }

    @KafkaListener(topics = ["shipments"], groupId = "g")
    fun onShipment(m: String) {}

    @RabbitListener(queues = ["emails"])
    falue = ["/items"])
    fun add() {}

    @DeleteMapping
    fun clear() {}
}

fun Application.module*/*/*/*/*/() {
    routing {
        get("/health") { call.respondText("ok") }
        route("/v1") {
            post("/orders") { }
        }
        val cached = cache.get("/not-a-route")
    }
}
