import { normalizeGatewayStatus, parseGatewayCallback, parseRupiahAmount } from './gateway-status';

describe('normalizeGatewayStatus — core-api.md §4, row by row', () => {
  test.each([
    ['paid', 'success'],
    ['success', 'success'],
    ['successful', 'success'],
    ['pending', 'pending'],
    ['waiting', 'pending'],
    ['failed', 'failed'],
    ['fail', 'failed'],
    ['cancelled', 'cancelled'],
    ['canceled', 'cancelled'],
    ['refund', 'refunded'],
    ['refunded', 'refunded'],
    ['reversed', 'reversed'],
    ['reverse', 'reversed'],
  ])('status %s → %s', (status, expected) => {
    expect(normalizeGatewayStatus(status, null)).toBe(expected);
    expect(normalizeGatewayStatus(` ${status.toUpperCase()} `, '4000000')).toBe(expected); // the word wins over the code
  });

  test.each([
    ['200', 'success'],
    ['2005400', 'success'],
    ['202', 'pending'],
    ['2025400', 'pending'],
    ['400', 'failed'],
    ['4005401', 'failed'],
    ['401', 'failed'],
    ['4015400', 'failed'],
    ['402', 'failed'],
    ['403', 'failed'],
    ['404', 'failed'],
    ['4045401', 'failed'],
    ['409', 'failed'],
    ['500', 'failed'],
    ['5005400', 'failed'],
    ['201', 'pending'],
    ['405', 'pending'],
    ['429', 'pending'],
    ['503', 'pending'],
    ['20', 'pending'],
    ['', 'pending'],
  ])('empty status, responseCode %s → %s', (code, expected) => {
    expect(normalizeGatewayStatus('', code)).toBe(expected);
    expect(normalizeGatewayStatus(null, code)).toBe(expected);
  });

  test('an unknown status word falls to the responseCode, and to pending without one', () => {
    expect(normalizeGatewayStatus('settled', '2000000')).toBe('success');
    expect(normalizeGatewayStatus('settled', null)).toBe('pending');
  });
});

describe('parseRupiahAmount', () => {
  test.each([
    ['15000', 15000],
    ['15000.00', 15000],
    ['15000.0', 15000],
    [' 1 ', 1],
    ['0001', 1],
  ])('%j → %d', (raw, expected) => expect(parseRupiahAmount(raw)).toBe(expected));

  test.each(['15000.50', '15000.01', '-15000', '0', '0.00', '1e5', '15,000', '15.000,00', 'abc', '', '.5', '15000.', '12345678901234567'])(
    '%j is refused',
    (raw) => {
      expect(parseRupiahAmount(raw)).toBeNull();
    },
  );
});

describe('parseGatewayCallback', () => {
  const base = { referenceNo: 'REF-1', merchantId: 'ID1026112200001', terminalId: 'TDEMO0001', amount: '15000', status: 'paid' };

  test('transaction_code is partnerReferenceNo, else referenceNo', () => {
    expect(parseGatewayCallback(base)).toMatchObject({
      ok: true,
      value: { transactionCode: 'REF-1', partnerReferenceNo: null, grossAmount: 15000, status: 'success' },
    });
    expect(parseGatewayCallback({ ...base, partnerReferenceNo: 'PRN-9' })).toMatchObject({
      ok: true,
      value: { transactionCode: 'PRN-9', referenceNo: 'REF-1' },
    });
    expect(parseGatewayCallback({ ...base, partnerReferenceNo: '  ' })).toMatchObject({ ok: true, value: { transactionCode: 'REF-1' } });
  });

  test.each([
    ['no referenceNo', { ...base, referenceNo: undefined }],
    ['blank referenceNo', { ...base, referenceNo: '  ' }],
    ['no merchantId', { ...base, merchantId: undefined }],
    ['no amount', { ...base, amount: undefined }],
    ['a numeric amount', { ...base, amount: 15000 }],
    ['a fractional amount', { ...base, amount: '100.5' }],
    ['a negative amount', { ...base, amount: '-1' }],
    ['neither status nor responseCode', { ...base, status: undefined }],
    ['blank status and responseCode', { ...base, status: ' ', responseCode: '' }],
    ['not an object', 'x'],
  ])('%s is refused', (_name, payload) => {
    const result = parseGatewayCallback(payload);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.message.length > 0).toBe(true);
  });
});
