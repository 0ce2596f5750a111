package main

import (
	"net/http"
	"os"
)

func charge(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest("POST", "https://api.stripe.com/v1/charges", r.Body)
	req.Header.Set("Authorization", "Bearer "+os.Getenv("STRIPE_KEY"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
}

func status(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("ok"))
}

func main() {
	http.HandleFunc("POST /payments", charge)
	http.HandleFunc("GET /payments/{id}", status)
	http.ListenAndServe(":8080", nil)
}
