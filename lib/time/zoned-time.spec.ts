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

  it('formats as Intl does, offsets remembered per quarter hour included, across daylight-saving changes and local mean time', () => {
    const formats = new Map<string, Intl.DateTimeFormat>();
    const intl = (zone: string, instant: Date) => {
      const format =
        formats.get(zone) ??
        new Intl.DateTimeFormat('en-US', {
          timeZone: zone,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          timeZoneName: 'longOffset',
        });
      formats.set(zone, format);
      const p = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
      const ms = instant.getUTCMilliseconds();
      const offset = p.timeZoneName.replace('GMT', '') || '+00:00';
      return `${p.year.padStart(4, '0')}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${ms ? `.${String(ms).padStart(3, '0')}` : ''}${offset}`;
    };
    const transitions = [
      '2026-03-29T00:59:59.999Z',
      '2026-03-29T01:00:00Z',
      '2026-11-01T05:59:59Z',
      '2026-11-01T06:00:00Z',
      '1932-10-31T16:00:00Z',
    ];
    const differing: string[] = [];
    for (const zone of ['Asia/Makassar', 'Asia/Jakarta', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu']) {
      const calendar = new ZonedCalendar(zone);
      // Deterministic instants from 1900 to 2100, a little under a month apart, at odd milliseconds.
      const instants = [...transitions.map((iso) => new Date(iso))];
      for (let t = Date.UTC(1900, 0, 1); t < Date.UTC(2100, 0, 1); t += 86_400_000 * 29 + 3_599_997) instants.push(new Date(t));
      for (const instant of instants) {
        if (calendar.iso(instant) !== intl(zone, instant)) differing.push(`${zone} ${instant.toISOString()}: ${calendar.iso(instant)}`);
      }
    }
    expect(differing).toEqual([]);
  });
});
