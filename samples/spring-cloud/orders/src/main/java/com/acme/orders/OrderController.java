package com.acme.orders;

import org.springframework.http.HttpStatus;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

@RestController
@RequestMapping("/orders")
public class OrderController {

    private final OrderRepository repository;
    private final InventoryClient inventory;
    private final KafkaTemplate<String, String> kafkaTemplate;

    public OrderController(OrderRepository repository, InventoryClient inventory,
                           KafkaTemplate<String, String> kafkaTemplate) {
        this.repository = repository;
        this.inventory = inventory;
        this.kafkaTemplate = kafkaTemplate;
    }

    @GetMapping("/{id}")
    public Order get(@PathVariable Long id) {
        return repository.findById(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    public Order place(@RequestBody Order request) {
        if (inventory.stock(request.getSku()).available() < request.getQuantity()) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "out of stock");
        }
        Order saved = repository.save(request);
        kafkaTemplate.send("orders.created", saved.getId().toString(), saved.getSku());
        return saved;
    }
}
