import { webcrypto } from 'node:crypto';

/**
 * The HS256 key of a configured secret, imported into Web Crypto once per process and secret. jose signs and
 * verifies through Web Crypto: given the secret's bytes it imports them again on every call, given this key it does
 * not. On Node 24 a sign and a verify of an eleven-bank principal cost 0.09 ms of CPU with the key and 0.14–0.15 ms with
 * the bytes (docs/benchmarks.md, "Tried and not kept"). Secrets come from configuration, so the map stays small.
 */
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();

export function hs256Key(secret: string): Promise<webcrypto.CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}
