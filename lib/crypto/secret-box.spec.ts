import { SecretBox, newKeyId, newSecret } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('a-test-encryption-key-of-enough-length');

  it('round-trips and never produces the same ciphertext twice', () => {
    const sealed = box.seal('s3cret');
    expect(sealed).toMatch(/^v1\.[\w-]+$/);
    expect(sealed).not.toContain('s3cret');
    expect(box.seal('s3cret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('s3cret');
  });

  it('refuses a tampered value and a wrong key', () => {
    const sealed = box.seal('s3cret');
    const flipped = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(flipped)).toThrow();
    expect(() => new SecretBox('another-key-of-enough-length-000000').open(sealed)).toThrow();
    expect(() => box.open('v0.abc')).toThrow(/unsupported/);
  });

  it('seals with the first key, opens with any, and reseals only what another key sealed', () => {
    const oldKey = 'an-old-encryption-key-of-enough-length';
    const newKey = 'a-new-encryption-key-of-enough-length!';
    const before = new SecretBox(oldKey).seal('bank-secret');
    const rotating = new SecretBox([newKey, oldKey]);
    expect(rotating.open(before)).toBe('bank-secret');
    const resealed = rotating.reseal(before)!;
    expect(new SecretBox(newKey).open(resealed)).toBe('bank-secret');
    expect(rotating.reseal(resealed)).toBeNull();
    expect(() => new SecretBox(newKey).reseal(before)).toThrow(/none of the configured keys/);
  });

  it('makes key ids and secrets', () => {
    expect(newKeyId('lk')).toMatch(/^lk_[0-9a-f]{24}$/);
    expect(newSecret()).toMatch(/^[0-9a-f]{64}$/);
  });
});
