import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import { ZonedCalendar } from '@lib/time/zoned-time';
import type { PosTillCloseFieldsFragment } from '@rest-adapters/generated/operations';

/** Business days of till closes: Asia/Makassar, as the app's periods (docs/decisions/0017-local-time-through-iana-zones.md). */
export const TILL_ZONE_CALENDAR = new ZonedCalendar('Asia/Makassar');

const Rupiah = (description: string) => Type.Integer({ description: `Whole rupiah: ${description}` });

/** The close of an outlet's business day or of a cashier's shift (docs/decisions/0057-sales-orders-and-receipt-numbers.md). */
export const TillClose = Type.Object({
  id: Type.String({ format: 'uuid' }),
  outlet_id: Type.String({ format: 'uuid' }),
  kind: Type.Union([Type.Literal('day'), Type.Literal('shift')]),
  business_day: Nullable(Type.String({ format: 'date', description: 'A day close’s business day (Asia/Makassar); null for a shift.' })),
  cashier_user_id: Nullable(Type.String({ format: 'uuid', description: 'The app user who closed; null on the service surface.' })),
  cashier_name: Nullable(Type.String()),
  period_start: Type.String({ format: 'date-time', description: 'Start of the window, inclusive: orders transacted from here…' }),
  period_end: Type.String({
    format: 'date-time',
    description: '…to before here. A day: the next 00:00 Asia/Makassar, or the close’s time while the day was not over.',
  }),
  opening_float: Rupiah('cash in the drawer at the start.'),
  expected_cash: Rupiah('opening_float + cash payments − change given.'),
  counted_cash: Rupiah('cash the cashier counted.'),
  cash_difference: Rupiah('counted_cash − expected_cash; negative when the drawer is short. Not 0: the owners get a push.'),
  order_count: Type.Integer({
    description: 'Sales: completed and open orders of the window (voided ones are voids; refunded ones neither).',
  }),
  sales_amount: Rupiah('Σ total_amount of the sales.'),
  change_amount: Rupiah('Σ change_amount of the sales (given in cash).'),
  qris_matched_amount: Rupiah(
    'QRIS the platform matched: Σ payments the dynamic QRIS of the orders brought, each matched to the bank’s payment by bill number and amount.',
  ),
  qris_matched_count: Type.Integer({ description: 'How many such payments.' }),
  qris_unconfirmed_amount: Rupiah('payments of method `qris` the device recorded that no matched platform payment backs.'),
  sales_by_method: Type.Array(
    Type.Object({
      method: Type.String({ description: 'As the device sent it (`qris` for the platform’s matched payments too).' }),
      order_count: Type.Integer(),
      amount: Rupiah('Σ payments of the method (cash as tendered, before change).'),
    }),
    { description: 'Largest amount first.' },
  ),
  sales_by_category: Type.Array(
    Type.Object({
      category_id: Nullable(Type.String({ format: 'uuid', description: 'Null: products without a category.' })),
      category_name: Nullable(Type.String()),
      quantity: Type.Integer(),
      amount: Rupiah('Σ line totals (before the order-level discount and tax).'),
    }),
    { description: 'Largest amount first.' },
  ),
  void_count: Type.Integer({ description: 'Voided orders of the window.' }),
  void_amount: Rupiah('Σ total_amount of the voided orders.'),
  note: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time', description: 'When it was closed.' }),
});
export type TillClose = Static<typeof TillClose>;

export function toTillClose(c: PosTillCloseFieldsFragment): TillClose {
  return {
    id: c.id,
    outlet_id: c.outletId,
    kind: c.kind as TillClose['kind'],
    business_day: c.businessDay,
    cashier_user_id: c.cashierUserId,
    cashier_name: c.cashierName,
    period_start: c.periodStart,
    period_end: c.periodEnd,
    opening_float: c.openingFloat,
    expected_cash: c.expectedCash,
    counted_cash: c.countedCash,
    cash_difference: c.cashDifference,
    order_count: c.orderCount,
    sales_amount: c.salesAmount,
    change_amount: c.changeAmount,
    qris_matched_amount: c.qrisMatchedAmount,
    qris_matched_count: c.qrisMatchedCount,
    qris_unconfirmed_amount: c.qrisUnconfirmedAmount,
    sales_by_method: c.salesByMethod.map((m) => ({ method: m.method, order_count: m.orderCount, amount: m.amount })),
    sales_by_category: c.salesByCategory.map((g) => ({
      category_id: g.categoryId,
      category_name: g.categoryName,
      quantity: g.quantity,
      amount: g.amount,
    })),
    void_count: c.voidCount,
    void_amount: c.voidAmount,
    note: c.note,
    created_at: c.createdAt,
  };
}

/** What every till-close route's description says of the figures. */
export const TILL_CLOSE_RULES = [
  'A close is made of the outlet’s sales orders transacted in its window, as the server holds them when it is made (orders a device pushes later are in no close). Business days are calendar days in Asia/Makassar, as the app’s periods. Expected cash = `opening_float` + cash payments − change given; the QRIS figures are the orders’ own: payments the platform matched to their dynamic QRIS (by bill number and amount) apart from `qris` payments the device recorded alone.',
  'A close with a cash difference (counted ≠ expected) sends every owner of the merchant a push, in the owner’s language.',
].join('\n\n');
