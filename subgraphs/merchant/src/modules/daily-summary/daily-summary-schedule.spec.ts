import { businessDayOf, nextSendTime, sendTimeOn } from './daily-summary-schedule';

const at2100 = { hour: 21, minute: 0 };

describe('daily summary schedule (Asia/Makassar, +08:00)', () => {
  it('puts the send time on the local wall clock of the day', () => {
    expect(sendTimeOn('2026-11-29', at2100).toISOString()).toBe('2026-11-29T13:00:00.000Z');
    expect(sendTimeOn('2026-11-29', { hour: 0, minute: 30 }).toISOString()).toBe('2026-11-28T16:30:00.000Z');
  });

  it('answers the first send time strictly after an instant', () => {
    expect(nextSendTime(new Date('2026-11-29T12:59:59.999Z'), at2100).toISOString()).toBe('2026-11-29T13:00:00.000Z');
    expect(nextSendTime(new Date('2026-11-29T13:00:00.000Z'), at2100).toISOString()).toBe('2026-11-30T13:00:00.000Z');
    // 23:30 local on the 29th is 15:30 UTC: the next is the 30th's.
    expect(nextSendTime(new Date('2026-11-29T15:30:00.000Z'), at2100).toISOString()).toBe('2026-11-30T13:00:00.000Z');
    // 00:30 local on the 30th is 16:30 UTC on the 29th: still the 30th's.
    expect(nextSendTime(new Date('2026-11-29T16:30:00.000Z'), at2100).toISOString()).toBe('2026-11-30T13:00:00.000Z');
  });

  it('reports the local day of the send time, as the app’s period `today` bounds it', () => {
    expect(businessDayOf(new Date('2026-11-29T13:00:00.000Z'))).toEqual({
      day: '2026-11-29',
      from: new Date('2026-11-28T16:00:00.000Z'),
      before: new Date('2026-11-29T16:00:00.000Z'),
    });
    // A year's last day.
    expect(businessDayOf(new Date('2026-12-31T13:00:00.000Z')).before.toISOString()).toBe('2026-12-31T16:00:00.000Z');
  });
});
