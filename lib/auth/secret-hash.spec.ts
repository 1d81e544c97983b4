import { dummySecretHash, hashSecret, verifySecret } from './secret-hash';

describe('secret hashing (scrypt)', () => {
  it('stores parameters and a per-secret salt, and verifies only the right secret', async () => {
    const a = await hashSecret('s3cret');
    const b = await hashSecret('s3cret');
    expect(a).toMatch(/^scrypt\$N=16384,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifySecret('s3cret', a)).toBe(true);
    expect(await verifySecret('s3cret', b)).toBe(true);
    expect(await verifySecret('s3cret ', a)).toBe(false);
    expect(await verifySecret('', a)).toBe(false);
  });

  it('refuses malformed or abusive stored values without throwing', async () => {
    expect(await verifySecret('x', 'plain')).toBe(false);
    expect(await verifySecret('x', 'scrypt$N=99999999,r=8,p=1$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
    expect(await verifySecret('x', await dummySecretHash())).toBe(false);
  });
});
