package com.acme.inventory

import org.springframework.kafka.annotation.KafkaListener
import org.springframework.kafka.core.KafkaTemplate
import org.springframework.stereotype.Component
import java.util.concurrent.ConcurrentHashMap

@Component
class StockLedger(private val kafkaTemplate: KafkaTemplate<String, String>) {

    private val levels = ConcurrentHashMap<String, Int>()

    fun available(sku: String): Int = levels.getOrDefault(sku, 0)

    fun set(sku: String, available: Int) {
        levels[sku] = available
    }

    @KafkaListener(topics = ["orders.created"], groupId = "inventory")
    fun onOrderCreated(sku: String) {
        levels.computeIfPresent(sku) { _, n -> n - 1 }
        kafkaTemplate.send("stock.reserved", sku)
    }
}
