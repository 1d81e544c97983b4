import { Type } from '@sinclair/typebox';
import { Nullable } from './schema-helpers';
import { writeTimes } from './response-times';
import { JAKARTA_TIMES, MAKASSAR_TIMES, UTC_TIMES, followsTimeRule, inTimeRule } from '../time/api-time';

describe('time rules (lib/time/api-time.ts)', () => {
  const instant = new Date('2026-11-28T18:03:03.261Z');

  it('write an instant in UTC, Asia/Jakarta or Asia/Makassar, milliseconds in the zones only when not 0', () => {
    expect(UTC_TIMES.format(instant)).toBe('2026-11-28T18:03:03.261Z');
    expect(JAKARTA_TIMES.format(instant)).toBe('2026-11-29T01:03:03.261+07:00');
    expect(MAKASSAR_TIMES.format(instant)).toBe('2026-11-29T02:03:03.261+08:00');
    expect(MAKASSAR_TIMES.format(new Date('2026-11-28T16:00:00Z'))).toBe('2026-11-29T00:00:00+08:00');
    expect(UTC_TIMES.format(new Date('2026-11-28T16:00:00Z'))).toBe('2026-11-28T16:00:00.000Z');
  });

  it('read any RFC 3339 offset or a Date, and leave what names no instant as it is', () => {
    for (const text of ['2026-11-28T18:03:03.261Z', '2026-11-29T01:03:03.261+07:00', '2026-11-28T13:03:03.261-05:00'])
      expect(inTimeRule(MAKASSAR_TIMES, text)).toBe('2026-11-29T02:03:03.261+08:00');
    expect(inTimeRule(JAKARTA_TIMES, instant)).toBe('2026-11-29T01:03:03.261+07:00');
    expect(inTimeRule(UTC_TIMES, 'not a time')).toBe('not a time');
    expect(inTimeRule(UTC_TIMES, 42)).toBe(42);
  });

  it('tell whether a text is exactly what a rule writes', () => {
    expect(followsTimeRule(JAKARTA_TIMES, '2026-11-29T01:03:03.261+07:00')).toBe(true);
    expect(followsTimeRule(JAKARTA_TIMES, '2026-11-28T18:03:03.261Z')).toBe(false);
    expect(followsTimeRule(UTC_TIMES, '2026-11-28T18:03:03Z')).toBe(false); // UTC always has milliseconds
    expect(followsTimeRule(MAKASSAR_TIMES, '2026-11-29T00:00:00.000+08:00')).toBe(false); // .000 is left out
  });
});

describe('writeTimes (the one place REST answers get their instants written)', () => {
  const Shared = Type.Object({ seen_at: Type.String({ format: 'date-time' }) }, { $id: 'SharedThing' });
  const Body = Type.Object({
    name: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    settled_at: Nullable(Type.String({ format: 'date-time' })),
    items: Type.Array(Type.Object({ at: Type.String({ format: 'date-time' }), note: Type.String() })),
    shared: Type.Ref(Shared),
    either: Type.Union([
      Type.Object({ a_at: Type.String({ format: 'date-time' }) }),
      Type.Object({ b_at: Type.String({ format: 'date-time' }) }),
    ]),
  });
  const resolve = (id: string) => (id === 'SharedThing' ? Shared : undefined);

  it('writes every date-time field (nullable, in arrays, through $ref and unions) and nothing else', () => {
    const body = {
      name: '2026-11-28T18:03:03.261Z', // text that looks like a time, in a field that is not one, is left alone
      created_at: '2026-11-28T18:03:03.261Z',
      settled_at: null,
      items: [{ at: '2026-11-29T01:03:03+07:00', note: 'x' }],
      shared: { seen_at: '2026-11-28T18:03:03.261Z' },
      either: { b_at: '2026-11-28T18:03:03.261Z' },
    };
    const copy = structuredClone(body);
    expect(writeTimes(body, Body, MAKASSAR_TIMES, resolve)).toEqual({
      name: '2026-11-28T18:03:03.261Z',
      created_at: '2026-11-29T02:03:03.261+08:00',
      settled_at: null,
      items: [{ at: '2026-11-29T02:03:03+08:00', note: 'x' }],
      shared: { seen_at: '2026-11-29T02:03:03.261+08:00' },
      either: { b_at: '2026-11-29T02:03:03.261+08:00' },
    });
    expect(body).toEqual(copy); // the route's objects are copied, not changed
  });

  it('leaves bodies without a schema or an instant as they are', () => {
    const plain = { a: 1 };
    expect(writeTimes(plain, Type.Object({ a: Type.Integer() }), UTC_TIMES, resolve)).toBe(plain);
    expect(writeTimes('<svg/>', undefined, UTC_TIMES, resolve)).toBe('<svg/>');
  });
});
