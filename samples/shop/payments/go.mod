module github.com/acme/payments

go 1.22
