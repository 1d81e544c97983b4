import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import { MerchantStatusSchema, TransactionStatusSchema } from '@rest-adapters/partner/routes/partner-data';

/** Both contracts' parameters (partner-api.md §4); those of the other contract are refused in the handler. */
export const TransactionsQuery = Type.Object(
  {
    period: Type.Optional(
      Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')], { description: 'Contract A; default monthly.' }),
    ),
    anchor_date: Type.Optional(Type.String({ format: 'date', description: 'Contract A; ISO date, default today in Asia/Jakarta.' })),
    transaction_at_from: Type.Optional(Type.String({ format: 'date-time', description: 'Contract B; inclusive.' })),
    transaction_at_to: Type.Optional(Type.String({ format: 'date-time', description: 'Contract B; inclusive.' })),
    status: Type.Optional(TransactionStatusSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Contract B; default 50.' })),
  },
  { additionalProperties: false },
);
export type TransactionsQuery = Static<typeof TransactionsQuery>;

const Common = {
  id: Type.String({ format: 'uuid' }),
  transaction_code: Type.String(),
  transaction_status: TransactionStatusSchema,
  payment_method: Type.String(),
  payment_channel: Nullable(Type.String({ description: 'Issuer; null when the bank did not report it.' })),
  gross_amount: Type.Integer(),
  outlet_id: Nullable(
    Type.String({
      format: 'uuid',
      description: 'The outlet that received the payment (store it next to merchant_id); null when recorded without one.',
    }),
  ),
};

/** Success transactions of one outlet of the merchant in the window (partner-api.md §1 outlet_breakdown). */
export const OutletTotals = Type.Object(
  {
    outlet_id: Nullable(Type.String({ format: 'uuid', description: 'null: transactions recorded without an outlet.' })),
    gross_amount: Type.Integer(),
    transaction_count: Type.Integer(),
  },
  { additionalProperties: false },
);

/** Contract A: no fee or MDR fields; times in +07:00. */
export const TransactionsA = Type.Object(
  {
    merchant_id: Type.String({ format: 'uuid' }),
    merchant_name: Type.String(),
    merchant_status: MerchantStatusSchema,
    period: Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')]),
    period_start_at: Type.String({ format: 'date-time' }),
    period_end_at: Type.String({ format: 'date-time' }),
    summary: Type.Object(
      {
        gross_amount: Type.Integer(),
        transaction_count: Type.Integer(),
        outlet_breakdown: Type.Array(OutletTotals, {
          description: 'The summary per outlet, highest gross first: its gross_amount and transaction_count add up to the summary’s.',
        }),
      },
      { additionalProperties: false },
    ),
    items: Type.Array(
      Type.Object(
        {
          id: Common.id,
          transaction_code: Common.transaction_code,
          external_reference: Nullable(Type.String()),
          transaction_status: Common.transaction_status,
          payment_method: Common.payment_method,
          payment_channel: Common.payment_channel,
          gross_amount: Common.gross_amount,
          transaction_at: Type.String({ format: 'date-time' }),
          settled_at: Nullable(Type.String({ format: 'date-time' })),
          outlet_id: Common.outlet_id,
        },
        { additionalProperties: false },
      ),
      { maxItems: 50 },
    ),
  },
  { additionalProperties: false, title: 'PartnerTransactionsA' },
);
export type TransactionsA = Static<typeof TransactionsA>;

/** Contract B: with the per-transaction MDR breakdown. */
export const TransactionsB = Type.Object(
  {
    merchant_id: Type.String({ format: 'uuid' }),
    items: Type.Array(
      Type.Object(
        {
          id: Common.id,
          merchant_id: Type.String({ format: 'uuid' }),
          transaction_code: Common.transaction_code,
          transaction_status: Common.transaction_status,
          payment_method: Common.payment_method,
          payment_channel: Common.payment_channel,
          gross_amount: Common.gross_amount,
          mdr_rate: Type.Number({ description: 'Decimal, e.g. 0.007.' }),
          mdr_fee_amount: Type.Integer(),
          net_amount_after_mdr: Type.Integer(),
          currency: Type.String(),
          transaction_at: Type.String({ format: 'date-time' }),
          settled_at: Nullable(Type.String({ format: 'date-time' })),
          settlement_status: Type.String({ description: 'unsettled or settled.' }),
          outlet_id: Common.outlet_id,
        },
        { additionalProperties: false },
      ),
    ),
    count: Type.Integer(),
  },
  { additionalProperties: false, title: 'PartnerTransactionsB' },
);
export type TransactionsB = Static<typeof TransactionsB>;

export const TransactionsResponse = Type.Unsafe<TransactionsA | TransactionsB>({ oneOf: [TransactionsA, TransactionsB] });
