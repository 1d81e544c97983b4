import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque bearer values (refresh tokens `rt_…`, device-login cancel links `dl_…`): 256 random bits, stored as
 * SHA-256 only. A fast unsalted hash is enough here: with 256 bits of entropy there is nothing to brute-force,
 * and the lookup by hash stays a unique-index hit.
 */
export function newOpaqueToken(prefix: 'rt' | 'dl'): { token: string; hash: string } {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: opaqueTokenHash(token) };
}

export function opaqueTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
