<?php
// Signing sample, PHP 7.4 or later, default extensions only (hash, json; HTTP through PHP's own streams):
// `php signing.php bank` or `php signing.php partner`.
//   bank:    a lookup by NMID signed with the lookup key, then a payment event signed with the event key.
//   partner: JWT mode: the token exchange, then the referral merchants with the bearer token; HMAC mode
//            (PARTNER_AUTH=hmac): the same list, the request signed.
// Settings from the environment, defaults the demo data of `npm start`: BASE; BANK_LOOKUP_KEY_ID, BANK_LOOKUP_SECRET,
// BANK_EVENT_KEY_ID, BANK_EVENT_SECRET, NMID; PARTNER_ID, PARTNER_KEY, PARTNER_SECRET, PARTNER_AUTH (jwt or hmac).

function env(string $name, string $fallback): string
{
    $value = getenv($name);
    return $value === false || $value === '' ? $fallback : $value;
}

// Lowercase hex HMAC-SHA256 of method, request target (path and query, as sent), timestamp and raw body, joined by
// "\n", under the key's secret.
function sign(string $secret, string $method, string $target, string $timestamp, string $body): string
{
    return hash_hmac('sha256', implode("\n", [$method, $target, $timestamp, $body]), $secret);
}

// RFC 3339 with an offset, Jakarta time (+07:00), to the second.
function timestamp(): string
{
    return (new DateTime('now', new DateTimeZone('+07:00')))->format(DATE_RFC3339);
}

// Sends the request and prints its status line, and its body unless it is a token ($quiet); exits 1 on a non-2xx.
function send(string $method, string $target, array $headers, string $body = '', bool $quiet = false): string
{
    if ($body !== '') {
        $headers['Content-Type'] = 'application/json';
    }
    $lines = [];
    foreach ($headers as $name => $value) {
        $lines[] = "$name: $value";
    }
    $context = stream_context_create(['http' => [
        'method' => $method,
        'header' => implode("\r\n", $lines),
        'content' => $body,
        'ignore_errors' => true, // the body of a 4xx answer too
    ]]);
    $text = file_get_contents(env('BASE', 'http://localhost:8080') . $target, false, $context);
    preg_match('{^HTTP/\S+ (\d{3})}', $http_response_header[0] ?? '', $m);
    $status = (int) ($m[1] ?? 0);
    $ok = $status >= 200 && $status < 300;
    echo "$method $target -> $status\n";
    if (!$quiet || !$ok) {
        echo "$text\n";
    }
    if (!$ok) {
        exit(1);
    }
    return $text;
}

function bank(): void
{
    $nmid = env('NMID', 'ID1026112200001');
    // 1. A lookup, signed with the lookup key (headers X-API-Key-ID, X-Timestamp, X-Signature).
    $lookupTarget = "/api/psp/v1/merchants/by-nmid/$nmid?include_outlets=true";
    $ts = timestamp();
    send('GET', $lookupTarget, [
        'X-API-Key-ID' => env('BANK_LOOKUP_KEY_ID', 'lk_demo'),
        'X-Timestamp' => $ts,
        'X-Signature' => sign(env('BANK_LOOKUP_SECRET', 'demo-lookup-secret-0123456789abcdef'), 'GET', $lookupTarget, $ts, ''),
    ]);

    // 2. A payment event, signed with the event key (headers X-PSP-Key-ID, X-PSP-Timestamp, X-PSP-Signature). The
    // body is sent byte for byte as signed.
    $ts = timestamp();
    $id = 'SAMPLE-PHP-' . hrtime(true);
    $body = json_encode([
        'external_event_id' => $id,
        'event_type' => 'qris.payment.success',
        'nmid' => $nmid,
        'gross_amount' => 25000,
        'transaction_code' => "TRX-$id",
        'transaction_at' => $ts,
        'status' => 'success',
    ], JSON_UNESCAPED_SLASHES);
    send('POST', '/psp/v1/events', [
        'X-PSP-Key-ID' => env('BANK_EVENT_KEY_ID', 'ek_demo'),
        'X-PSP-Timestamp' => $ts,
        'X-PSP-Signature' => sign(env('BANK_EVENT_SECRET', 'demo-event-secret-0123456789abcdef0'), 'POST', '/psp/v1/events', $ts, $body),
    ], $body);
}

function partner(): void
{
    $key = env('PARTNER_KEY', 'pk_demo_a');
    $secret = env('PARTNER_SECRET', 'demo-partner-secret-a-0123456789abcdef');
    $target = '/api/partner/v1/partners/' . env('PARTNER_ID', '019a0000-0000-7000-8000-00000000f001') . '/referral-merchants';
    if (env('PARTNER_AUTH', 'jwt') === 'hmac') {
        // HMAC mode: headers X-Partner-Key-ID, X-Partner-Timestamp, X-Partner-Signature on every request.
        $ts = timestamp();
        send('GET', $target, [
            'X-Partner-Key-ID' => $key,
            'X-Partner-Timestamp' => $ts,
            'X-Partner-Signature' => sign($secret, 'GET', $target, $ts, ''),
        ]);
        return;
    }
    // JWT mode: the token exchange, then `Authorization: Bearer <access_token>` until it expires (contract A:
    // expires_in_secs, B: expires_in).
    $body = json_encode(['credential_key' => $key, 'credential_secret' => $secret]);
    $token = json_decode(send('POST', '/api/partner/v1/auth/token', [], $body, true), true);
    echo "access token received for partner {$token['partner_code']}\n";
    send('GET', $target, ['Authorization' => "Bearer {$token['access_token']}"]);
}

$which = $argv[1] ?? '';
if ($which === 'bank') {
    bank();
} elseif ($which === 'partner') {
    partner();
} else {
    fwrite(STDERR, "usage: php signing.php bank|partner\n");
    exit(2);
}
