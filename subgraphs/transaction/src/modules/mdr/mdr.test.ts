import { mdrFeeOf } from './mdr';

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
