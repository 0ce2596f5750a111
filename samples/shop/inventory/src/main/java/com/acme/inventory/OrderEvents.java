package com.acme.inventory;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

@Component
public class OrderEvents {

    @RabbitListener(queues = "orders.created")
    public void onOrderCreated(String order) {
        // reserve stock for the order
    }
}
