import { parse } from 'csv-parse/sync';
import { BadInputError } from '@lib/errors/app-error';
import { renderStatementCsv } from './statement-csv';
import { monthBounds, previousMonth, requestableMonth } from './statement-month';
import type { StatementModel } from './statement-model';
import { nextMonthlyRun } from './statement-schedule';

const AT_3 = { hour: 3, minute: 0 };

describe('statement months and the monthly run (Asia/Makassar)', () => {
  it('bounds a month as the app’s period=month does: local midnights of the 1st and the next 1st, every day listed', () => {
    const m = monthBounds('2026-02');
    expect(m.start.toISOString()).toBe('2026-01-31T16:00:00.000Z');
    expect(m.end.toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(m.days).toHaveLength(28);
    expect(monthBounds('2028-02').days.at(-1)).toBe('2028-02-29');
    expect(previousMonth('2027-01')).toBe('2026-12');
  });

  it('accepts 2020-01 to the current month only', () => {
    const now = new Date('2026-11-30T17:00:00Z'); // 1 December 01:00 WITA
    expect(requestableMonth('2026-12', now).month).toBe('2026-12');
    for (const bad of ['2027-01', '2019-12', '2026-13', '2026-1', ' 2026-10'])
      expect(() => requestableMonth(bad, now)).toThrow(BadInputError);
  });

  it('runs on the 1st at the local time: the next run strictly after now', () => {
    expect(nextMonthlyRun(new Date('2026-11-29T10:00:00Z'), AT_3).toISOString()).toBe('2026-11-30T19:00:00.000Z');
    // 1 December 03:00 WITA exactly: the run after it is January's.
    expect(nextMonthlyRun(new Date('2026-11-30T19:00:00Z'), AT_3).toISOString()).toBe('2026-12-31T19:00:00.000Z');
    // 1 December 02:00 WITA (still 30 November in UTC): today's run is ahead.
    expect(nextMonthlyRun(new Date('2026-11-30T18:00:00Z'), AT_3).toISOString()).toBe('2026-11-30T19:00:00.000Z');
  });
});

describe('statement CSV', () => {
  const model = {
    month: '2026-10',
    opening: { count: 0, net_amount: 0 },
    summary: { count: 1, grossAmount: 10_000, mdrFeeAmount: 70, serviceFeeAmount: 100, netAmount: 9_830 },
    refunds: { count: 0, amount: 0 },
    settlements: { count: 0, gross_amount: 0, mdr_amount: 0, net_amount: 0, rows: [] },
    transactions: [
      {
        id: 't1',
        transaction_code: '=HYPERLINK("x","y")',
        status: 'success',
        outlet_id: null,
        nmid: 'ID1',
        gross_amount: 10_000,
        mdr_fee_amount: 70,
        service_fee_amount: 100,
        refunded_amount: 0,
        net_amount: 9_830,
        settlement_status: 'unsettled',
        transaction_at: new Date('2026-10-05T02:00:00Z'),
      },
    ],
  } as unknown as StatementModel;

  it('quotes, defuses formulas, writes WITA times and sums as integers', () => {
    const records: Record<string, string>[] = parse(renderStatementCsv(model), { columns: true });
    const [t] = records;
    expect(t.transaction_code).toBe(`'=HYPERLINK("x","y")`);
    expect(t.transaction_at).toBe('2026-10-05T10:00:00+08:00');
    expect(records.find((r) => r.record === 'total' && r.id === 'net_amount')!.gross_amount).toBe('9830');
  });
});
