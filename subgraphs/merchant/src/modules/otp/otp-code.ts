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
 * The HMAC also keeps verification cheap, so guessing cannot load the server.
 */
export class OtpHasher {
  private readonly key: Buffer;

  constructor(secretsKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretsKey, 'qris-otp', 'otp-code-hmac', 32));
  }

  hash(challengeId: string, code: string): string {
    return createHmac('sha256', this.key).update(`${challengeId}:${code}`).digest('hex');
  }

  matches(challengeId: string, code: string, stored: string): boolean {
    const expected = Buffer.from(stored, 'hex');
    const actual = Buffer.from(this.hash(challengeId, code), 'hex');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
