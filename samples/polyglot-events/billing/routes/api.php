<?php

use App\Http\Controllers\InvoiceController;
use Illuminate\Support\Facades\Route;

Route::get('/invoices/{id}', [InvoiceController::class, 'show']);
Route::post('/invoices/{id}/resend', [InvoiceController::class, 'resend']);
