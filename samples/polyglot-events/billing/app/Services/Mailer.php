<?php

namespace App\Services;

use GuzzleHttp\Client;

class Mailer
{
    private Client $client;

    public function __construct()
    {
        $this->client = new Client([
            'base_uri' => config('services.sendgrid.url'),
            'headers' => ['Authorization' => 'Bearer ' . config('services.sendgrid.key')],
        ]);
    }

    public function sendInvoice(string $email, array $invoice): void
    {
        $this->client->post('/v3/mail/send', [
            'json' => [
                'personalizations' => [['to' => [['email' => $email]]]],
                'from' => ['email' => 'billing@acme.test'],
                'subject' => 'Your invoice ' . $invoice['id'],
                'content' => [['type' => 'text/plain', 'value' => 'Total: ' . $invoice['total']]],
            ],
        ]);
    }
}
