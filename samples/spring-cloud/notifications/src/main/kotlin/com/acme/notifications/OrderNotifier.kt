package com.acme.notifications

import org.slf4j.LoggerFactory
import org.springframework.kafka.annotation.KafkaListener
import org.springframework.stereotype.Component

@Component
class OrderNotifier {

    private val log = LoggerFactory.getLogger(OrderNotifier::class.java)

    @KafkaListener(topics = ["orders.created"], groupId = "notifications")
    fun orderCreated(orderId: String) {
        log.info("order {} placed, e-mail queued", orderId)
    }

    @KafkaListener(topics = ["stock.reserved"], groupId = "notifications")
    fun stockReserved(sku: String) {
        log.info("stock reserved for {}", sku)
    }
}
