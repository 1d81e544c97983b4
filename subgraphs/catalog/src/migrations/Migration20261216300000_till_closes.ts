import { Migration } from '@mikro-orm/migrations';

/**
 * End-of-day and shift closes of an outlet's till (docs/decisions/0057-sales-orders-and-receipt-numbers.md): one row per close with the
 * figures computed from the merchant's own sales orders at the close, the counted cash and its difference.
 * - A day close is unique per (merchant, outlet, business day); shift closes of one cashier at one outlet must not
 *   overlap, which the service checks under a transaction-level advisory lock per (merchant, outlet).
 * - `idempotency_key` is unique per merchant with the hash of the request, as for dynamic QRIS payments.
 */
export class Migration20261216300000_till_closes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table catalog.till_closes (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid not null,
        kind text not null constraint till_closes_kind_check check (kind in ('day', 'shift')),
        business_day date,
        cashier_user_id uuid,
        cashier_name text,
        period_start timestamptz not null,
        period_end timestamptz not null,
        opening_float bigint not null default 0,
        expected_cash bigint not null,
        counted_cash bigint not null,
        cash_difference bigint not null,
        order_count integer not null,
        sales_amount bigint not null,
        change_amount bigint not null,
        qris_matched_amount bigint not null,
        qris_matched_count integer not null,
        qris_unconfirmed_amount bigint not null,
        sales_by_method jsonb not null,
        sales_by_category jsonb not null,
        void_count integer not null,
        void_amount bigint not null,
        note text,
        closed_by text not null,
        idempotency_key text,
        request_hash text not null,
        created_at timestamptz not null,
        constraint till_closes_period_check check (period_start < period_end),
        constraint till_closes_day_check check ((kind = 'day') = (business_day is not null)),
        constraint till_closes_cash_check check (counted_cash >= 0 and opening_float >= 0 and cash_difference = counted_cash - expected_cash)
      );
      create unique index till_closes_day_key on catalog.till_closes (merchant_id, outlet_id, business_day) where kind = 'day';
      create unique index till_closes_idempotency_key on catalog.till_closes (merchant_id, idempotency_key) where idempotency_key is not null;
      create index till_closes_list_idx on catalog.till_closes (merchant_id, period_end desc, id desc);
      create index till_closes_outlet_idx on catalog.till_closes (merchant_id, outlet_id, period_end desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table catalog.till_closes;`);
  }
}
