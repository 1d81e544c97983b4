import { STATEMENT_CALENDAR } from './statement-month';
import type { StatementModel } from './statement-model';

/** A CSV field: quoted when it holds a comma, quote or line break; a leading = + - @ is prefixed so no spreadsheet runs it. */
function field(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const row = (cells: (string | number | null)[]): string => cells.map(field).join(',');

/**
 * The statement as CSV (RFC 4180, UTF-8, CRLF; docs/decisions/0242-daily-reconciliation.md): one line per transaction of
 * the month (`record` = `transaction`), then one per settlement (`settlement`), then the totals (`total`, one line per
 * figure). Amounts are whole rupiah integers, times ISO 8601 in +08:00 (WITA), so the file sums without parsing.
 */
export function renderStatementCsv(model: StatementModel): Buffer {
  const lines: string[] = [
    row([
      'record',
      'id',
      'transaction_at',
      'transaction_code',
      'status',
      'outlet_id',
      'nmid',
      'gross_amount',
      'mdr_fee_amount',
      'service_fee_amount',
      'refunded_amount',
      'net_amount',
      'settlement_status',
    ]),
  ];
  for (const t of model.transactions) {
    lines.push(
      row([
        'transaction',
        t.id,
        STATEMENT_CALENDAR.iso(t.transaction_at),
        t.transaction_code,
        t.status,
        t.outlet_id,
        t.nmid,
        t.gross_amount,
        t.mdr_fee_amount,
        t.service_fee_amount,
        t.refunded_amount,
        t.net_amount,
        t.settlement_status,
      ]),
    );
  }
  for (const s of model.settlements.rows) {
    lines.push(
      row([
        'settlement',
        s.settlement_id,
        s.settlement_date,
        s.bank_code,
        'success',
        null,
        s.nmid,
        s.gross_amount,
        s.mdr_total,
        0,
        0,
        s.net_amount,
        'settled',
      ]),
    );
  }
  const totals: [string, number][] = [
    ['opening_unsettled_amount', model.opening.net_amount],
    ['transaction_count', model.summary.count],
    ['gross_amount', model.summary.grossAmount],
    ['mdr_fee_amount', model.summary.mdrFeeAmount],
    ['service_fee_amount', model.summary.serviceFeeAmount],
    ['net_amount', model.summary.netAmount],
    ['refund_count', model.refunds.count],
    ['refund_amount', model.refunds.amount],
    ['settlement_count', model.settlements.count],
    ['settled_amount', model.settlements.net_amount],
  ];
  for (const [name, value] of totals)
    lines.push(row(['total', name, model.month, null, null, null, null, value, null, null, null, null, null]));
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}
