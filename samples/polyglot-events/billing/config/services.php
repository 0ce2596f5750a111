<?php

return [
    'sendgrid' => [
        'url' => env('SENDGRID_URL', 'https://api.sendgrid.com'),
        'key' => env('SENDGRID_API_KEY'),
    ],

    'rabbitmq' => [
        'host' => env('RABBITMQ_HOST', 'localhost'),
        'port' => env('RABBITMQ_PORT', 5672),
    ],
];
