package com.acme.inventory

import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PutMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RestController

data class StockLevel(val sku: String, val available: Int)

@RestController
@RequestMapping("/inventory")
class StockController(private val stock: StockLedger) {

    @GetMapping("/{sku}")
    fun level(@PathVariable sku: String): StockLevel = StockLevel(sku, stock.available(sku))

    @PutMapping("/{sku}")
    fun restock(@PathVariable sku: String, @RequestBody level: StockLevel) {
        stock.set(sku, level.available)
    }
}
