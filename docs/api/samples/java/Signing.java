// Signing sample, Java 11 or later, JDK only: `java Signing.java bank` or `java Signing.java partner`.
//   bank:    a lookup by NMID signed with the lookup key, then a payment event signed with the event key.
//   partner: JWT mode: the token exchange, then the referral merchants with the bearer token; HMAC mode
//            (PARTNER_AUTH=hmac): the same list, the request signed.
// Settings from the environment, defaults the demo data of `npm start`: BASE; BANK_LOOKUP_KEY_ID, BANK_LOOKUP_SECRET,
// BANK_EVENT_KEY_ID, BANK_EVENT_SECRET, NMID; PARTNER_ID, PARTNER_KEY, PARTNER_SECRET, PARTNER_AUTH (jwt or hmac).

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Signing {
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    /** Lowercase hex HMAC-SHA256 of method, request target (path and query, as sent), timestamp and raw body, joined by "\n", under the key's secret. */
    static String sign(String secret, String method, String target, String timestamp, String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] digest = mac.doFinal(String.join("\n", method, target, timestamp, body).getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder();
        for (byte b : digest) hex.append(String.format("%02x", b));
        return hex.toString();
    }

    /** RFC 3339 with an offset, Jakarta time (+07:00), to the second. */
    static String timestamp() {
        return OffsetDateTime.now(ZoneOffset.ofHours(7)).truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    /** Sends the request and prints its status line, and its body unless it is a token (quiet); exits 1 on a non-2xx answer. */
    static String send(String method, String target, Map<String, String> headers, String body, boolean quiet) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(env("BASE", "http://localhost:8080") + target))
            .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        headers.forEach(request::header);
        if (!body.isEmpty()) request.header("Content-Type", "application/json");
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        boolean ok = response.statusCode() >= 200 && response.statusCode() < 300;
        System.out.println(method + " " + target + " -> " + response.statusCode());
        if (!quiet || !ok) System.out.println(response.body());
        if (!ok) System.exit(1);
        return response.body();
    }

    /** One string field of a flat JSON answer (a JSON library does this in a real client). */
    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!m.find()) throw new IllegalStateException("no " + name + " in " + json);
        return m.group(1);
    }

    static void bank() throws Exception {
        String nmid = env("NMID", "ID1026112200001");
        // 1. A lookup, signed with the lookup key (headers X-API-Key-ID, X-Timestamp, X-Signature).
        String lookupTarget = "/api/psp/v1/merchants/by-nmid/" + nmid + "?include_outlets=true";
        String ts = timestamp();
        send("GET", lookupTarget, Map.of(
            "X-API-Key-ID", env("BANK_LOOKUP_KEY_ID", "lk_demo"),
            "X-Timestamp", ts,
            "X-Signature", sign(env("BANK_LOOKUP_SECRET", "demo-lookup-secret-0123456789abcdef"), "GET", lookupTarget, ts, "")), "", false);

        // 2. A payment event, signed with the event key (headers X-PSP-Key-ID, X-PSP-Timestamp, X-PSP-Signature).
        // The body is sent byte for byte as signed (built by hand here: no JSON library needed for these values).
        ts = timestamp();
        String id = "SAMPLE-JAVA-" + System.nanoTime();
        String body = "{\"external_event_id\":\"" + id + "\",\"event_type\":\"qris.payment.success\",\"nmid\":\"" + nmid
            + "\",\"gross_amount\":25000,\"transaction_code\":\"TRX-" + id + "\",\"transaction_at\":\"" + ts + "\",\"status\":\"success\"}";
        send("POST", "/psp/v1/events", Map.of(
            "X-PSP-Key-ID", env("BANK_EVENT_KEY_ID", "ek_demo"),
            "X-PSP-Timestamp", ts,
            "X-PSP-Signature", sign(env("BANK_EVENT_SECRET", "demo-event-secret-0123456789abcdef0"), "POST", "/psp/v1/events", ts, body)), body, false);
    }

    static void partner() throws Exception {
        String key = env("PARTNER_KEY", "pk_demo_a");
        String secret = env("PARTNER_SECRET", "demo-partner-secret-a-0123456789abcdef");
        String target = "/api/partner/v1/partners/" + env("PARTNER_ID", "019a0000-0000-7000-8000-00000000f001") + "/referral-merchants";
        if (env("PARTNER_AUTH", "jwt").equals("hmac")) {
            // HMAC mode: headers X-Partner-Key-ID, X-Partner-Timestamp, X-Partner-Signature on every request.
            String ts = timestamp();
            send("GET", target, Map.of(
                "X-Partner-Key-ID", key,
                "X-Partner-Timestamp", ts,
                "X-Partner-Signature", sign(secret, "GET", target, ts, "")), "", false);
            return;
        }
        // JWT mode: the token exchange, then `Authorization: Bearer <access_token>` until it expires (contract A:
        // expires_in_secs, B: expires_in). Key and secret are JSON-safe strings (letters, digits, _ and -).
        String body = "{\"credential_key\":\"" + key + "\",\"credential_secret\":\"" + secret + "\"}";
        String token = send("POST", "/api/partner/v1/auth/token", Map.of(), body, true);
        System.out.println("access token received for partner " + field(token, "partner_code"));
        send("GET", target, Map.of("Authorization", "Bearer " + field(token, "access_token")), "", false);
    }

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "";
        if (which.equals("bank")) bank();
        else if (which.equals("partner")) partner();
        else {
            System.err.println("usage: java Signing.java bank|partner");
            System.exit(2);
        }
    }
}
