// Signing sample, Go 1.17 or later, standard library only: `go run signing.go bank` or `go run signing.go partner`.
//
//	bank:    a lookup by NMID signed with the lookup key, then a payment event signed with the event key.
//	partner: JWT mode: the token exchange, then the referral merchants with the bearer token; HMAC mode
//	         (PARTNER_AUTH=hmac): the same list, the request signed.
//
// Settings from the environment, defaults the demo data of `npm start`: BASE; BANK_LOOKUP_KEY_ID, BANK_LOOKUP_SECRET,
// BANK_EVENT_KEY_ID, BANK_EVENT_SECRET, NMID; PARTNER_ID, PARTNER_KEY, PARTNER_SECRET, PARTNER_AUTH (jwt or hmac).
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

func env(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

// sign: lowercase hex HMAC-SHA256 of method, request target (path and query, as sent), timestamp and raw body,
// joined by "\n", under the key's secret.
func sign(secret, method, target, timestamp, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(method + "\n" + target + "\n" + timestamp + "\n" + body))
	return hex.EncodeToString(mac.Sum(nil))
}

// timestamp: RFC 3339 with an offset, Jakarta time (+07:00), to the second.
func timestamp() string {
	return time.Now().In(time.FixedZone("WIB", 7*3600)).Format(time.RFC3339)
}

// send: sends the request and prints its status line, and its body unless it is a token (quiet); exits 1 on a
// non-2xx answer.
func send(method, target string, headers map[string]string, body string, quiet bool) string {
	request, err := http.NewRequest(method, env("BASE", "http://localhost:8080")+target, strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	for name, value := range headers {
		request.Header.Set(name, value)
	}
	if body != "" {
		request.Header.Set("Content-Type", "application/json")
	}
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		panic(err)
	}
	defer response.Body.Close()
	text, _ := io.ReadAll(response.Body)
	ok := response.StatusCode >= 200 && response.StatusCode < 300
	fmt.Printf("%s %s -> %d\n", method, target, response.StatusCode)
	if !quiet || !ok {
		fmt.Printf("%s\n", text)
	}
	if !ok {
		os.Exit(1)
	}
	return string(text)
}

func bank() {
	nmid := env("NMID", "ID1026112200001")
	// 1. A lookup, signed with the lookup key (headers X-API-Key-ID, X-Timestamp, X-Signature).
	lookupTarget := "/api/psp/v1/merchants/by-nmid/" + nmid + "?include_outlets=true"
	ts := timestamp()
	send("GET", lookupTarget, map[string]string{
		"X-API-Key-ID": env("BANK_LOOKUP_KEY_ID", "lk_demo"),
		"X-Timestamp":  ts,
		"X-Signature":  sign(env("BANK_LOOKUP_SECRET", "demo-lookup-secret-0123456789abcdef"), "GET", lookupTarget, ts, ""),
	}, "", false)

	// 2. A payment event, signed with the event key (headers X-PSP-Key-ID, X-PSP-Timestamp, X-PSP-Signature). The
	// body is sent byte for byte as signed.
	ts = timestamp()
	id := fmt.Sprintf("SAMPLE-GO-%d", time.Now().UnixNano())
	encoded, _ := json.Marshal(struct {
		ExternalEventID string `json:"external_event_id"`
		EventType       string `json:"event_type"`
		Nmid            string `json:"nmid"`
		GrossAmount     int    `json:"gross_amount"`
		TransactionCode string `json:"transaction_code"`
		TransactionAt   string `json:"transaction_at"`
		Status          string `json:"status"`
	}{id, "qris.payment.success", nmid, 25000, "TRX-" + id, ts, "success"})
	body := string(encoded)
	send("POST", "/psp/v1/events", map[string]string{
		"X-PSP-Key-ID":    env("BANK_EVENT_KEY_ID", "ek_demo"),
		"X-PSP-Timestamp": ts,
		"X-PSP-Signature": sign(env("BANK_EVENT_SECRET", "demo-event-secret-0123456789abcdef0"), "POST", "/psp/v1/events", ts, body),
	}, body, false)
}

func partner() {
	key := env("PARTNER_KEY", "pk_demo_a")
	secret := env("PARTNER_SECRET", "demo-partner-secret-a-0123456789abcdef")
	target := "/api/partner/v1/partners/" + env("PARTNER_ID", "019a0000-0000-7000-8000-00000000f001") + "/referral-merchants"
	if env("PARTNER_AUTH", "jwt") == "hmac" {
		// HMAC mode: headers X-Partner-Key-ID, X-Partner-Timestamp, X-Partner-Signature on every request.
		ts := timestamp()
		send("GET", target, map[string]string{
			"X-Partner-Key-ID":    key,
			"X-Partner-Timestamp": ts,
			"X-Partner-Signature": sign(secret, "GET", target, ts, ""),
		}, "", false)
		return
	}
	// JWT mode: the token exchange, then `Authorization: Bearer <access_token>` until it expires (contract A:
	// expires_in_secs, B: expires_in).
	body, _ := json.Marshal(map[string]string{"credential_key": key, "credential_secret": secret})
	var token struct {
		AccessToken string `json:"access_token"`
		PartnerCode string `json:"partner_code"`
	}
	if err := json.Unmarshal([]byte(send("POST", "/api/partner/v1/auth/token", map[string]string{}, string(body), true)), &token); err != nil {
		panic(err)
	}
	fmt.Printf("access token received for partner %s\n", token.PartnerCode)
	send("GET", target, map[string]string{"Authorization": "Bearer " + token.AccessToken}, "", false)
}

func main() {
	which := ""
	if len(os.Args) > 1 {
		which = os.Args[1]
	}
	switch which {
	case "bank":
		bank()
	case "partner":
		partner()
	default:
		fmt.Fprintln(os.Stderr, "usage: go run signing.go bank|partner")
		os.Exit(2)
	}
}
