<?php

namespace App\Http\Controllers;

use App\Services\Mailer;
use Illuminate\Support\Facades\Cache;

class InvoiceController extends Controller
{
    public function show(string $id)
    {
        return response()->json(Cache::get("invoice:$id") ?? abort(404));
    }

    public function resend(string $id, Mailer $mailer)
    {
        $invoice = Cache::get("invoice:$id") ?? abort(404);
        $mailer->sendInvoice($invoice['email'], $invoice);
        return response()->noContent();
    }
}
