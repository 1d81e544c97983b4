import { type ScryptOptions, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * One-way storage of secrets we only ever need to compare (JWT-mode partner credential secrets, DESIGN.md §4):
 * scrypt from node:crypto with a random 16-byte salt per secret. The parameters travel with the hash, so they
 * can be raised later without invalidating stored hashes. Stored form:
 * `scrypt$N=16384,r=8,p=1$<base64url salt>$<base64url 32-byte key>`.
 */
const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

function derive(secret: string, salt: Buffer, params: { N: number; r: number; p: number }, keyBytes: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(secret, salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(secret, salt, PARAMS, KEY_BYTES);
  return `scrypt$N=${PARAMS.N},r=${PARAMS.r},p=${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Constant-time comparison of a presented secret with a stored hash; false for a malformed hash. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [, n, r, p, salt, key] = match;
  const expected = Buffer.from(key, 'base64url');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (expected.length < 16 || params.N > 1 << 20 || params.r > 32 || params.p > 16) return false;
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), params, expected.length);
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;
/**
 * A hash of nothing in particular, verified against when the credential is unknown (or not hashed), so that
 * an unknown key costs the same scrypt work as a wrong secret: no timing difference between the two.
 */
export function dummySecretHash(): Promise<string> {
  dummy ??= hashSecret(randomBytes(32).toString('hex'));
  return dummy;
}
