import { Type } from '@sinclair/typebox';
import { DIFFERENCE_CLASSES } from '@lib/domain/reconciliation/difference-classes';
import { Nullable } from '@lib/rest/schema-helpers';

export const ReconciliationQuery = Type.Object({
  business_day: Type.String({
    pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
    description: 'The business day, YYYY-MM-DD in Asia/Jakarta (the day the bank’s settlements name).',
  }),
  outlet_id: Type.Optional(
    Type.String({ format: 'uuid', description: 'One outlet (within the member’s outlets); default: every outlet the member sees.' }),
  ),
});

const Amount = (description: string) => Type.Integer({ description: `${description} Whole rupiah.` });
const NullableAmount = (description: string) => Nullable(Type.Integer({ description: `${description} Whole rupiah.` }));

const Difference = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The same for every run of the day that finds this difference again.' }),
    class: Type.Union(
      DIFFERENCE_CLASSES.map((c) => Type.Literal(c)),
      { description: 'What kind of difference (docs: reconciliation).' },
    ),
    subject: Type.String({ description: '`transaction:<id>`, `settlement:<id>` or `order:<id>`.' }),
    transaction_id: Nullable(Type.String({ format: 'uuid', description: 'The payment concerned.' })),
    settlement_ref: Nullable(Type.String({ format: 'uuid', description: 'The bank’s settlement concerned (our id).' })),
    sales_order_id: Nullable(Type.String({ format: 'uuid', description: 'The point-of-sale order concerned.' })),
    expected_amount: NullableAmount(
      'The platform’s side (payment to settle, payments a settlement matched, our MDR fee, the order’s QRIS amount).',
    ),
    reported_amount: NullableAmount('The other side (the bank’s settlement gross or fee, the payment’s gross for an order).'),
    difference_amount: NullableAmount('reported − expected.'),
    detail: Type.Object(
      {
        settlement_id: Type.Optional(Type.String({ description: 'The bank’s settlement id.' })),
        matched_count: Type.Optional(Type.Integer({ description: 'Payments the settlement matched.' })),
        receipt_number: Type.Optional(Type.String({ description: 'The order’s receipt number.' })),
        transacted_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the order was made, +08:00.' })),
        transaction_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the payment was made, +08:00.' })),
        reason: Type.Optional(Type.String({ description: 'Why a payment naming one of our bill numbers paid no dynamic QRIS.' })),
        bill_number: Type.Optional(Type.String()),
        received_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the settlement arrived, +08:00.' })),
        due_at: Type.Optional(Type.String({ format: 'date-time', description: 'When it was due, +08:00.' })),
        rule: Type.Optional(
          Type.Union([Type.Literal('bill_number'), Type.Literal('amount_time')], { description: 'How the order was to be matched.' }),
        ),
      },
      { additionalProperties: false },
    ),
    resolution: Type.Union([Type.Literal('open'), Type.Literal('resolved')], { description: 'An operator’s resolution.' }),
    note: Nullable(Type.String({ description: 'An operator’s note.' })),
    resolved_at: Nullable(Type.String({ format: 'date-time', description: '+08:00.' })),
    first_found_at: Type.String({ format: 'date-time', description: '+08:00.' }),
    last_found_at: Type.String({ format: 'date-time', description: '+08:00.' }),
    cleared_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'A later run no longer found it (kept: an operator resolved or annotated it), +08:00.',
      }),
    ),
  },
  { additionalProperties: false },
);

const OutletDay = Type.Object(
  {
    outlet_id: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('reconciled'), Type.Literal('differences')]),
    reconciled_at: Type.String({ format: 'date-time', description: 'When the last run wrote it, +08:00.' }),
    settlement: Type.Object(
      {
        count: Type.Integer(),
        gross_amount: Amount('The settlements’ gross.'),
        mdr_amount: Amount('The bank’s MDR (mdr_total).'),
        net_amount: Amount('The settlements’ net.'),
      },
      { additionalProperties: false },
    ),
    payments: Type.Object(
      {
        count: Type.Integer({ description: 'Success transactions of the day.' }),
        gross_amount: Amount('Their gross.'),
        mdr_fee_amount: Amount('The MDR fees the platform recorded on them.'),
        settled_count: Type.Integer(),
        settled_gross_amount: Amount('Of them, settled.'),
      },
      { additionalProperties: false },
    ),
    pos_orders: Type.Object(
      {
        qris_count: Type.Integer({ description: 'Orders paid (completed or refunded) with a QRIS payment.' }),
        qris_amount: Amount('Their QRIS amounts.'),
        matched_count: Type.Integer({ description: 'Of them, matched to a payment.' }),
      },
      { additionalProperties: false },
    ),
    difference_count: Type.Integer(),
    open_difference_count: Type.Integer({ description: 'Differences not resolved by an operator.' }),
    differences: Type.Array(Difference),
  },
  { additionalProperties: false },
);

export const ReconciliationResponse = Type.Object(
  {
    merchant_id: Nullable(Type.String({ format: 'uuid' })),
    business_day: Type.String({ description: 'YYYY-MM-DD, Asia/Jakarta.' }),
    outlets: Type.Array(OutletDay, { description: 'By outlet; an outlet with nothing that day is not listed.' }),
  },
  { additionalProperties: false },
);
