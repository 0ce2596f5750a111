<?php

namespace App\Console\Commands;

use App\Services\Mailer;
use Illuminate\Console\Command;
use Illuminate\Support\Facades\Cache;
use PhpAmqpLib\Connection\AMQPStreamConnection;
use PhpAmqpLib\Message\AMQPMessage;

class ConsumeOrders extends Command
{
    protected $signature = 'billing:consume-orders';

    public function handle(Mailer $mailer): void
    {
        $connection = new AMQPStreamConnection(config('services.rabbitmq.host'), config('services.rabbitmq.port'), 'guest', 'guest');
        $channel = $connection->channel();
        $channel->queue_declare('orders.placed', false, true, false, false);
        $channel->queue_declare('invoices.created', false, true, false, false);

        $channel->basic_consume('orders.placed', '', false, true, false, false, function (AMQPMessage $msg) use ($channel, $mailer) {
            $order = json_decode($msg->getBody(), true);
            $invoice = ['id' => uniqid('inv_'), 'email' => $order['email'], 'total' => $order['quantity'] * 10];
            Cache::put("invoice:{$invoice['id']}", $invoice);
            $mailer->sendInvoice($order['email'], $invoice);
            $channel->basic_publish(new AMQPMessage(json_encode($invoice)), '', 'invoices.created');
        });

        while ($channel->is_consuming()) {
            $channel->wait();
        }
    }
}
