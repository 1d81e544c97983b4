import { PrincipalVerifier, signPrincipal } from './principal';

const SECRET = 'principal-test-secret-0123456789abcdef';

describe('PrincipalVerifier', () => {
  afterEach(() => jest.useRealTimers());

  it('accepts a token signed with the secret, the second time from memory, and refuses a forged one', async () => {
    const verifier = new PrincipalVerifier(SECRET);
    const token = await signPrincipal({ kind: 'bank', bankId: 'b-1', bankCode: 'BDEMO', tier: 1 }, SECRET);
    expect(await verifier.verify(token)).toEqual({ kind: 'bank', bankId: 'b-1', bankCode: 'BDEMO', tier: 1 });
    expect(await verifier.verify(token)).toEqual({ kind: 'bank', bankId: 'b-1', bankCode: 'BDEMO', tier: 1 });
    const forged = await signPrincipal({ kind: 'operator', operatorId: 'x', roles: ['admin'] }, 'another-secret-0123456789abcdefgh');
    expect(await verifier.verify(forged)).toBeNull();
    expect(await verifier.verify(`${token.slice(0, -2)}xx`)).toBeNull();
    expect(await verifier.verify(undefined)).toBeNull();
  });

  it('refuses a remembered token once it has expired', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-25T10:00:00Z'), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const verifier = new PrincipalVerifier(SECRET);
    const token = await signPrincipal({ kind: 'service', service: 'rest-adapters' }, SECRET);
    expect(await verifier.verify(token)).toEqual({ kind: 'service', service: 'rest-adapters' });
    jest.setSystemTime(new Date('2026-11-25T10:01:01Z'));
    expect(await verifier.verify(token)).toBeNull();
  });
});
