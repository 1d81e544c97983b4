import { makassarPeriod } from './merchant-period';

describe('makassarPeriod (Asia/Makassar, +08:00)', () => {
  // Wednesday 2026-11-25 00:30 in Makassar is still Tuesday in UTC.
  const now = new Date('2026-11-24T16:30:00Z');

  test.each([
    ['today', '2026-11-25T00:00:00+08:00', '2026-11-25T23:59:59.999+08:00', '2026-11-24T16:00:00.000Z', '2026-11-25T16:00:00.000Z'],
    ['week', '2026-11-23T00:00:00+08:00', '2026-11-29T23:59:59.999+08:00', '2026-11-22T16:00:00.000Z', '2026-11-29T16:00:00.000Z'],
    ['month', '2026-11-01T00:00:00+08:00', '2026-11-30T23:59:59.999+08:00', '2026-10-31T16:00:00.000Z', '2026-11-30T16:00:00.000Z'],
    ['year', '2026-01-01T00:00:00+08:00', '2026-12-31T23:59:59.999+08:00', '2025-12-31T16:00:00.000Z', '2026-12-31T16:00:00.000Z'],
  ] as const)('%s', (period, startAt, endAt, start, end) => {
    const bounds = makassarPeriod(period, now);
    expect(bounds).toEqual({ startAt, endAt, start: new Date(start), end: new Date(end) });
  });
});
