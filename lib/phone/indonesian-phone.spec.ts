import { toIndonesianE164 } from './indonesian-phone';

describe('toIndonesianE164', () => {
  it.each([
    ['081234567890', '+6281234567890'],
    ['6281234567890', '+6281234567890'],
    ['+62 812-3456-7890', '+6281234567890'],
    ['(021) 3456789', '+62213456789'],
  ])('%s → %s', (input, expected) => expect(toIndonesianE164(input)).toBe(expected));

  it.each(['+6581234567', '+1 415 555 0100', '0812', '08123456789012345', 'abc', '+620812345678'])('refuses %s', (input) =>
    expect(toIndonesianE164(input)).toBeNull(),
  );
});
