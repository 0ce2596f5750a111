package com.acme.inventory;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/inventory")
public class InventoryController {

    @GetMapping("/{sku}")
    public int stock(@PathVariable String sku) {
        return 42;
    }

    @PutMapping("/{sku}")
    public void update(@PathVariable String sku) {
    }
}
