import { ZonedCalendar, addDays, mondayOf, nextMonthStart } from './zoned-time';

describe('ZonedCalendar', () => {
  const makassar = new ZonedCalendar('Asia/Makassar');
  const jakarta = new ZonedCalendar('Asia/Jakarta');

  test('offsets come from the zone database', () => {
    expect(makassar.offsetOf(new Date('2026-11-24T00:00:00Z'))).toBe('+08:00');
    expect(jakarta.offsetOf(new Date('2026-11-24T00:00:00Z'))).toBe('+07:00');
    expect(new ZonedCalendar('UTC').offsetOf(new Date('2026-11-24T00:00:00Z'))).toBe('+00:00');
  });

  test('local date and midnight around the day boundary', () => {
    expect(makassar.dateOf(new Date('2026-11-23T15:59:59.999Z'))).toBe('2026-11-23');
    expect(makassar.dateOf(new Date('2026-11-23T16:00:00Z'))).toBe('2026-11-24');
    expect(makassar.midnight('2026-11-24').toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(jakarta.midnight('2026-11-24').toISOString()).toBe('2026-11-23T17:00:00.000Z');
  });

  test('RFC 3339 with the offset, milliseconds only when not zero', () => {
    expect(makassar.iso(new Date('2026-11-23T16:00:00Z'))).toBe('2026-11-24T00:00:00+08:00');
    expect(makassar.iso(new Date('2026-11-24T15:59:59.999Z'))).toBe('2026-11-24T23:59:59.999+08:00');
  });

  test('calendar arithmetic', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(nextMonthStart('2026-12-15')).toBe('2027-01-01');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23'); // Sunday → its Monday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
  });
});
