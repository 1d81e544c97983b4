import { OTP_DIGITS, OtpHasher, generateOtpCode } from './otp-code';

describe('one-time password codes', () => {
  it('are six digits, leading zeros kept, and spread over the whole range', () => {
    const codes = Array.from({ length: 5000 }, generateOtpCode);
    for (const code of codes) expect(code).toMatch(/^[0-9]{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(4950);
    // each first digit appears (uniform: about 500 each); a bias towards low numbers would starve 9
    const firstDigits = new Map<string, number>();
    for (const code of codes) firstDigits.set(code[0], (firstDigits.get(code[0]) ?? 0) + 1);
    expect(firstDigits.size).toBe(10);
    for (const count of firstDigits.values()) expect(count).toBeGreaterThan(350);
    expect(OTP_DIGITS).toBe(6);
  });

  it('are stored as a keyed hash bound to the challenge, compared in constant time', () => {
    const hasher = new OtpHasher('a-secrets-key-of-at-least-32-characters');
    const stored = hasher.hash('challenge-1', '012345');
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain('012345');
    expect(hasher.matches('challenge-1', '012345', stored)).toBe(true);
    expect(hasher.matches('challenge-1', '012346', stored)).toBe(false);
    expect(hasher.matches('challenge-2', '012345', stored)).toBe(false);
    expect(new OtpHasher('another-secrets-key-of-32-characters!!').matches('challenge-1', '012345', stored)).toBe(false);
    expect(hasher.matches('challenge-1', '012345', 'not-hex')).toBe(false);
  });
});
