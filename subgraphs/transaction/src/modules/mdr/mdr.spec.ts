import { type MdrPolicyRow, mdrFeeOf, mdrRateAt } from './mdr';

describe('mdrFeeOf', () => {
  it('is gross × rate rounded half up, in whole rupiah', () => {
    expect(mdrFeeOf(100_000, '0.0070')).toBe(700);
    expect(mdrFeeOf(15_000, '0.0070')).toBe(105);
    expect(mdrFeeOf(500, '0.0070')).toBe(4); // 3.5
    expect(mdrFeeOf(250, '0.0060')).toBe(2); // 1.5
    expect(mdrFeeOf(71, '0.0070')).toBe(0); // 0.497
    expect(mdrFeeOf(72, '0.0070')).toBe(1); // 0.504
    expect(mdrFeeOf(125, '0.0040')).toBe(1); // 0.5
    expect(mdrFeeOf(1_000_000, '0.0000')).toBe(0);
    expect(mdrFeeOf(0, '0.0070')).toBe(0);
    expect(mdrFeeOf(1_000, '0.007')).toBe(7);
    expect(mdrFeeOf(1_000, '0')).toBe(0);
  });

  it('stays exact where floating point would not', () => {
    // 9007199254740991 × 0.007 = 63050394783186.937 → 63050394783187
    expect(mdrFeeOf(Number.MAX_SAFE_INTEGER, '0.0070')).toBe(63_050_394_783_187);
    // 0.0070 × 1050 is 7.349999… in binary floating point; exactly 7.35 → 7
    expect(mdrFeeOf(1_050, '0.0070')).toBe(7);
    expect(mdrFeeOf(2_150, '0.0070')).toBe(15); // 15.05
  });

  it('refuses a rate outside [0, 1), with more than four decimals, or a bad amount', () => {
    for (const rate of ['1', '1.0000', '0.00701', '-0.0070', 'abc', '', '.007']) {
      expect(() => mdrFeeOf(1_000, rate)).toThrow(RangeError);
    }
    for (const gross of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1]) expect(() => mdrFeeOf(gross, '0.0070')).toThrow(RangeError);
  });
});

describe('mdrRateAt', () => {
  const at = (iso: string) => new Date(iso);
  const ms = (iso: string) => Date.parse(iso);
  const row = (criteria: string | null, amount_from: number, amount_to: number | null, from: string, to: string | null, rate: string) =>
    ({ criteria, amount_from, amount_to, from_ms: ms(from), to_ms: to === null ? null : ms(to), rate }) satisfies MdrPolicyRow;
  const policy = [
    row(null, 0, null, '2020-04-01T00:00:00+07:00', null, '0.0070'),
    row('UMI', 0, 100_000, '2023-07-01T00:00:00+07:00', '2024-12-01T00:00:00+07:00', '0.0000'),
    row('UMI', 100_001, null, '2023-07-01T00:00:00+07:00', '2024-12-01T00:00:00+07:00', '0.0030'),
    row('UMI', 0, 500_000, '2024-12-01T00:00:00+07:00', null, '0.0000'),
    row('UMI', 500_001, null, '2024-12-01T00:00:00+07:00', null, '0.0030'),
  ];
  const micro = { criteria: 'UMI', policy };

  it('takes the band of the merchant criteria in force at the time, both band ends inclusive', () => {
    expect(mdrRateAt(micro, 100_000, at('2024-06-01T12:00:00+07:00'))).toBe('0.0000');
    expect(mdrRateAt(micro, 100_001, at('2024-06-01T12:00:00+07:00'))).toBe('0.0030');
    expect(mdrRateAt(micro, 500_000, at('2024-06-01T12:00:00+07:00'))).toBe('0.0030');
    expect(mdrRateAt(micro, 500_000, at('2024-12-01T00:00:00+07:00'))).toBe('0.0000');
    expect(mdrRateAt(micro, 500_000, at('2024-11-30T23:59:59.999+07:00'))).toBe('0.0030');
    expect(mdrRateAt(micro, 500_001, at('2025-01-01T00:00:00+07:00'))).toBe('0.0030');
  });

  it('falls back to the rows for every criteria, and before every period to the earliest row', () => {
    expect(mdrRateAt({ criteria: 'UKE', policy }, 50_000, at('2025-01-01T00:00:00Z'))).toBe('0.0070');
    // No UMI row in force in 2022 here: the rows for every criteria decide.
    expect(mdrRateAt(micro, 50_000, at('2022-01-01T00:00:00Z'))).toBe('0.0070');
    expect(mdrRateAt({ criteria: 'URE', policy }, 50_000, at('2019-01-01T00:00:00Z'))).toBe('0.0070');
    expect(mdrRateAt({ criteria: 'URE', policy: [] }, 50_000, at('2025-01-01T00:00:00Z'))).toBeUndefined();
  });
});
