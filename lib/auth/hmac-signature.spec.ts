import { createHmac } from 'node:crypto';
import { hmacHex, signatureMatches, signedString, skewSecs } from './hmac-signature';

describe('bank request signatures (psp-api.md §5)', () => {
  it('joins method, path, timestamp and raw body with line feeds', () => {
    const body = '{"external_event_id":"e-1"}';
    const text = signedString('post', '/psp/v1/events', '2026-11-22T10:00:00+07:00', body);
    expect(text).toBe(`POST\n/psp/v1/events\n2026-11-22T10:00:00+07:00\n${body}`);
    const expected = createHmac('sha256', 'secret').update(`POST\n/psp/v1/events\n2026-11-22T10:00:00+07:00\n${body}`).digest('hex');
    expect(hmacHex('secret', text)).toBe(expected);
  });

  it('compares signatures in constant time and only lowercase hex of the right length', () => {
    const sig = hmacHex('secret', 'x');
    expect(signatureMatches(sig, sig)).toBe(true);
    expect(signatureMatches(sig, sig.toUpperCase())).toBe(false);
    expect(signatureMatches(sig, `sha256=${sig}`)).toBe(false);
    expect(signatureMatches(sig, sig.slice(0, 63))).toBe(false);
    expect(signatureMatches(sig, hmacHex('other', 'x'))).toBe(false);
  });

  it('measures timestamp skew and refuses timestamps without an offset', () => {
    const now = Date.parse('2026-11-22T03:00:00Z');
    expect(skewSecs('2026-11-22T10:00:00+07:00', now)).toBe(0);
    expect(skewSecs('2026-11-22T03:05:01Z', now)).toBe(301);
    expect(skewSecs('2026-11-22T03:00:00', now)).toBeNull();
    expect(skewSecs('1763780400', now)).toBeNull();
    expect(skewSecs('2026-13-45T03:00:00Z', now)).toBeNull();
  });
});
