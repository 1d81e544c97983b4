import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import type { StatementFieldsFragment } from '@rest-adapters/generated/operations';

/** YYYY-MM: a calendar month in Asia/Makassar. */
export const Month = Type.String({
  pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$',
  description: 'A calendar month in Asia/Makassar (WITA), YYYY-MM: from 2020-01 to the current month (to date).',
});

export const Statement = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    outlet_id: Nullable(Type.String({ format: 'uuid', description: 'Null: the whole merchant.' })),
    month: Type.String({ description: 'YYYY-MM.' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('ready')], {
      description: '`pending`: queued (the files of an earlier generation, if any, are still served); `ready`: generated.',
    }),
    totals: Nullable(
      Type.Object(
        {
          transaction_count: Type.Integer({ description: 'Success transactions of the month.' }),
          gross_amount: Type.Integer(),
          mdr_fee_amount: Type.Integer(),
          service_fee_amount: Type.Integer({ description: 'Σ daily service fees (platform fee).' }),
          net_amount: Type.Integer({ description: 'gross − MDR − service fees (as `/merchant/transactions?period=month`).' }),
          refund_count: Type.Integer(),
          refund_amount: Type.Integer({ description: 'Σ refunded amounts of the month’s transactions.' }),
          settled_amount: Type.Integer({ description: 'Σ net of the month’s successful settlements.' }),
          opening_unsettled_amount: Type.Integer({ description: 'Net of earlier success transactions not settled when the month began.' }),
        },
        { additionalProperties: false, description: 'Whole rupiah; null until first generated.' },
      ),
    ),
    pdf_bytes: Nullable(Type.Integer()),
    csv_bytes: Nullable(Type.Integer()),
    requested_at: Type.String({ format: 'date-time' }),
    generated_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

export function toStatement(s: StatementFieldsFragment) {
  const t = s.totals;
  return {
    id: s.id,
    outlet_id: s.outletId ?? null,
    month: s.month,
    status: s.status as 'pending' | 'ready',
    totals: t
      ? {
          transaction_count: t.transactionCount,
          gross_amount: t.grossAmount,
          mdr_fee_amount: t.mdrFeeAmount,
          service_fee_amount: t.serviceFeeAmount,
          net_amount: t.netAmount,
          refund_count: t.refundCount,
          refund_amount: t.refundAmount,
          settled_amount: t.settledAmount,
          opening_unsettled_amount: t.openingUnsettledAmount,
        }
      : null,
    pdf_bytes: s.pdfBytes ?? null,
    csv_bytes: s.csvBytes ?? null,
    requested_at: s.requestedAt,
    generated_at: s.generatedAt ?? null,
  };
}

/** The demo merchant's October 2026 statement, generated. */
export const STATEMENT_EXAMPLE = {
  id: '019a4a2c-1e00-7c3b-9a1d-3f5e7b9c1d20',
  outlet_id: null,
  month: '2026-10',
  status: 'ready' as const,
  totals: {
    transaction_count: 412,
    gross_amount: 18_450_000,
    mdr_fee_amount: 129_150,
    service_fee_amount: 41_200,
    net_amount: 18_279_650,
    refund_count: 2,
    refund_amount: 55_000,
    settled_amount: 17_902_300,
    opening_unsettled_amount: 377_350,
  },
  pdf_bytes: 48_213,
  csv_bytes: 52_904,
  requested_at: '2026-11-01T03:00:00.000+08:00',
  generated_at: '2026-11-01T03:00:04.000+08:00',
};

export const STATEMENT_OWNER_NOTE =
  'Owners only: statements show the merchant’s money figures, so admins, staff and viewers get 403 `forbidden` (as does a user acting for no merchant).';
