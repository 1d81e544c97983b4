import { webcrypto } from 'node:crypto';
import { type JWTPayload, type JWTVerifyOptions, errors, jwtVerify } from 'jose';

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

/**
 * Verifies an HS256 JWT against each accepted secret in turn (the current one first, then those of a rotation,
 * `<NAME>_PREVIOUS`): the payload under the first secret whose signature matches, null when none does or the token
 * is otherwise invalid (expired, wrong issuer or audience, malformed). Only a signature mismatch tries the next secret.
 */
export async function verifyHs256(
  token: string,
  secrets: string | readonly string[],
  options: JWTVerifyOptions,
): Promise<JWTPayload | null> {
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    try {
      return (await jwtVerify(token, await hs256Key(secret), { ...options, algorithms: ['HS256'] })).payload;
    } catch (error) {
      if (!(error instanceof errors.JWSSignatureVerificationFailed)) return null;
    }
  }
  return null;
}
