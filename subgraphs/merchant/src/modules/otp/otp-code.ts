import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto';

/** OWASP ASVS V2.7: six digits from a CSPRNG; 300 s; single use; at most five tries; a new code replaces the old. */
export const OTP_DIGITS = 6;
export const OTP_TTL_SECS = 300;
export const OTP_RESEND_COOLDOWN_SECS = 60;
export const OTP_MAX_ATTEMPTS = 5;

/** A uniformly random code, leading zeros kept (crypto.randomInt is a CSPRNG without modulo bias). */
export function generateOtpCode(): string {
  return randomInt(0, 10 ** OTP_DIGITS)
    .toString()
    .padStart(OTP_DIGITS, '0');
}

/**
 * Codes are stored as HMAC-SHA256 under a server key, bound to their challenge id. A slow hash (scrypt) buys
 * nothing for a six-digit code — 10^6 candidates fall to any hash once the salt is known — while a key that
 * lives outside the database makes a leaked table useless: without the key no candidate can be checked.
 * The HMAC also keeps verification cheap, so guessing cannot load the server. Codes are hashed under the current
 * SECRETS_ENCRYPTION_KEY and checked under every accepted one, so a code sent just before a rotation still works.
 */
export class OtpHasher {
  private readonly keys: readonly Buffer[];

  constructor(secretsKeys: string | readonly string[]) {
    const all = typeof secretsKeys === 'string' ? [secretsKeys] : secretsKeys;
    this.keys = all.map((key) => Buffer.from(hkdfSync('sha256', key, 'qris-otp', 'otp-code-hmac', 32)));
  }

  hash(challengeId: string, code: string): string {
    return this.hashWith(this.keys[0], challengeId, code).toString('hex');
  }

  matches(challengeId: string, code: string, stored: string): boolean {
    const expected = Buffer.from(stored, 'hex');
    return this.keys.some((key) => {
      const actual = this.hashWith(key, challengeId, code);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    });
  }

  private hashWith(key: Buffer, challengeId: string, code: string): Buffer {
    return createHmac('sha256', key).update(`${challengeId}:${code}`).digest();
  }
}
