import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

export const TransactionsQuery = Type.Object({
  period: Type.Optional(
    Type.Union([Type.Literal('today'), Type.Literal('week'), Type.Literal('month'), Type.Literal('year')], {
      description: 'Default today (Asia/Makassar).',
    }),
  ),
});

export const MerchantTransactionsResponse = Type.Object(
  {
    merchant_id: Nullable(Type.String({ format: 'uuid' })),
    merchant_name: Nullable(Type.String()),
    merchant_status: Nullable(Type.String()),
    period: Type.String(),
    period_start_at: Type.String({ format: 'date-time', description: '00:00 of the first day, +08:00.' }),
    period_end_at: Type.String({ format: 'date-time', description: '23:59:59.999 of the last day, +08:00.' }),
    summary: Type.Object(
      {
        gross_amount: Type.Integer(),
        mdr_fee_amount: Type.Integer(),
        service_fee_amount: Type.Integer({ description: 'Σ daily service fees (platform fee) of the success transactions.' }),
        net_amount: Type.Integer({ description: 'gross − MDR − service fees.' }),
        transaction_count: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    items: Type.Array(
      Type.Object(
        {
          id: Type.String({ format: 'uuid' }),
          transaction_code: Type.String(),
          transaction_status: Type.String({ description: 'success, pending, failed, cancelled, refunded or reversed.' }),
          payment_method: Type.String(),
          payment_channel: Nullable(Type.String()),
          gross_amount: Type.Integer(),
          mdr_rate: Type.Number({ description: 'Decimal, e.g. 0.007.' }),
          mdr_fee_amount: Type.Integer(),
          net_amount_after_mdr: Type.Integer(),
          daily_service_fee_amount: Type.Integer({
            description: 'The platform’s service fee of this transaction, charged with the day’s settlement.',
          }),
          transaction_at: Type.String({ format: 'date-time', description: '+08:00.' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);
