import { SignJWT } from 'jose';
import { PARTNER_TOKEN_AUDIENCE, PARTNER_TOKEN_ISSUER, signPartnerToken, verifyPartnerToken } from './partner-token';

const SECRET = 'partner-token-secret-for-tests-0000000';
const claims = { credentialId: 'c1', credentialKey: 'pk_1', partnerId: 'p1', scopes: ['merchant.read'], contract: 'A' as const };

describe('partner tokens', () => {
  it('round-trips the claims with contract lifetimes of 900 s (A) and 3600 s (B)', async () => {
    const a = await signPartnerToken(claims, SECRET);
    expect(a.expiresInSecs).toBe(900);
    expect(await verifyPartnerToken(a.token, SECRET)).toEqual(claims);
    expect((await signPartnerToken({ ...claims, contract: 'B' }, SECRET)).expiresInSecs).toBe(3600);
  });

  it('refuses another secret, an expired token, alg none and missing claims', async () => {
    const { token } = await signPartnerToken(claims, SECRET);
    expect(await verifyPartnerToken(token, `${SECRET}x`)).toBeNull();
    expect(await verifyPartnerToken((await signPartnerToken(claims, SECRET, Date.now() - 901_000)).token, SECRET)).toBeNull();
    const [, payload] = token.split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect(await verifyPartnerToken(none, SECRET)).toBeNull();
    const noKey = await new SignJWT({ partner_id: 'p1', scopes: [], contract: 'A' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(PARTNER_TOKEN_ISSUER)
      .setAudience(PARTNER_TOKEN_AUDIENCE)
      .setSubject('c1')
      .setJti('j')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await verifyPartnerToken(noKey, SECRET)).toBeNull();
  });
});
