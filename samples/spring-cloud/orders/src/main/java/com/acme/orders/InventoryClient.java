package com.acme.orders;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

@FeignClient(name = "inventory")
public interface InventoryClient {

    @GetMapping("/inventory/{sku}")
    StockLevel stock(@PathVariable("sku") String sku);

    record StockLevel(String sku, int available) {}
}
