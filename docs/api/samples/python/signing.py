"""Signing sample, Python 3.8 or later, standard library only: `python3 signing.py bank` or `python3 signing.py partner`.

  bank:    a lookup by NMID signed with the lookup key, then a payment event signed with the event key.
  partner: JWT mode: the token exchange, then the referral merchants with the bearer token; HMAC mode
           (PARTNER_AUTH=hmac): the same list, the request signed.

Settings from the environment, defaults the demo data of `npm start`: BASE; BANK_LOOKUP_KEY_ID, BANK_LOOKUP_SECRET,
BANK_EVENT_KEY_ID, BANK_EVENT_SECRET, NMID; PARTNER_ID, PARTNER_KEY, PARTNER_SECRET, PARTNER_AUTH (jwt or hmac).
"""
import hashlib
import hmac
import json
import os
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone


def env(name, fallback):
    return os.environ.get(name) or fallback


BASE = env("BASE", "http://localhost:8080")


def sign(secret, method, target, timestamp, body):
    """Lowercase hex HMAC-SHA256 of method, request target (path and query, as sent), timestamp and raw body,
    joined by "\\n", under the key's secret."""
    to_sign = "\n".join([method, target, timestamp, body])
    return hmac.new(secret.encode(), to_sign.encode(), hashlib.sha256).hexdigest()


def timestamp():
    """RFC 3339 with an offset, Jakarta time (+07:00), to the second."""
    return datetime.now(timezone(timedelta(hours=7))).isoformat(timespec="seconds")


def send(method, target, headers, body="", quiet=False):
    """Sends the request and prints its status line, and its body unless it is a token (quiet); exits 1 on a
    non-2xx answer."""
    data = body.encode() if body else None
    if data:
        headers = {**headers, "Content-Type": "application/json"}
    request = urllib.request.Request(BASE + target, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    ok = 200 <= status < 300
    print(f"{method} {target} -> {status}")
    if not quiet or not ok:
        print(text)
    if not ok:
        sys.exit(1)
    return text


def bank():
    nmid = env("NMID", "ID1026112200001")
    # 1. A lookup, signed with the lookup key (headers X-API-Key-ID, X-Timestamp, X-Signature).
    lookup_target = f"/api/psp/v1/merchants/by-nmid/{nmid}?include_outlets=true"
    ts = timestamp()
    send("GET", lookup_target, {
        "X-API-Key-ID": env("BANK_LOOKUP_KEY_ID", "lk_demo"),
        "X-Timestamp": ts,
        "X-Signature": sign(env("BANK_LOOKUP_SECRET", "demo-lookup-secret-0123456789abcdef"), "GET", lookup_target, ts, ""),
    })

    # 2. A payment event, signed with the event key (headers X-PSP-Key-ID, X-PSP-Timestamp, X-PSP-Signature). The
    # body is sent byte for byte as signed.
    ts = timestamp()
    event_id = f"SAMPLE-PYTHON-{time.time_ns()}"
    body = json.dumps({
        "external_event_id": event_id,
        "event_type": "qris.payment.success",
        "nmid": nmid,
        "gross_amount": 25000,
        "transaction_code": f"TRX-{event_id}",
        "transaction_at": ts,
        "status": "success",
    }, separators=(",", ":"))
    send("POST", "/psp/v1/events", {
        "X-PSP-Key-ID": env("BANK_EVENT_KEY_ID", "ek_demo"),
        "X-PSP-Timestamp": ts,
        "X-PSP-Signature": sign(env("BANK_EVENT_SECRET", "demo-event-secret-0123456789abcdef0"), "POST", "/psp/v1/events", ts, body),
    }, body)


def partner():
    key = env("PARTNER_KEY", "pk_demo_a")
    secret = env("PARTNER_SECRET", "demo-partner-secret-a-0123456789abcdef")
    target = f"/api/partner/v1/partners/{env('PARTNER_ID', '019a0000-0000-7000-8000-00000000f001')}/referral-merchants"
    if env("PARTNER_AUTH", "jwt") == "hmac":
        # HMAC mode: headers X-Partner-Key-ID, X-Partner-Timestamp, X-Partner-Signature on every request.
        ts = timestamp()
        send("GET", target, {
            "X-Partner-Key-ID": key,
            "X-Partner-Timestamp": ts,
            "X-Partner-Signature": sign(secret, "GET", target, ts, ""),
        })
        return
    # JWT mode: the token exchange, then `Authorization: Bearer <access_token>` until it expires (contract A:
    # expires_in_secs, B: expires_in).
    body = json.dumps({"credential_key": key, "credential_secret": secret}, separators=(",", ":"))
    token = json.loads(send("POST", "/api/partner/v1/auth/token", {}, body, quiet=True))
    print(f"access token received for partner {token['partner_code']}")
    send("GET", target, {"Authorization": f"Bearer {token['access_token']}"})


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which == "bank":
        bank()
    elif which == "partner":
        partner()
    else:
        print("usage: python3 signing.py bank|partner", file=sys.stderr)
        sys.exit(2)
