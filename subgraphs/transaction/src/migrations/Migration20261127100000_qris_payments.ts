import { Migration } from '@mikro-orm/migrations';

/**
 * Dynamic QRIS per sale (docs/decisions/0201-qris-payloads.md): the payment intents, matched to bank events in
 * the intake transaction, and the success events that named a bill number but could not settle one (for
 * reconciliation). Bill numbers are unique over all merchants; an Idempotency-Key is unique per merchant.
 */
export class Migration20261127100000_qris_payments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "transaction".qris_payments (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid not null,
        nmid text not null,
        amount bigint not null check (amount between 1 and 10000000),
        bill_number text not null unique,
        qris_payload text not null,
        sales_order_id uuid,
        status text not null default 'pending' check (status in ('pending', 'paid', 'cancelled')),
        expires_at timestamptz not null,
        paid_at timestamptz,
        transaction_id uuid,
        payment_event_id uuid,
        idempotency_key text,
        request_hash text,
        created_by_user_id uuid,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index qris_payments_idempotency_uq on "transaction".qris_payments (merchant_id, idempotency_key)
        where idempotency_key is not null;
      create index qris_payments_merchant_created_idx on "transaction".qris_payments (merchant_id, created_at);

      create table "transaction".qris_unmatched_payments (
        id uuid primary key,
        payment_event_id uuid not null unique,
        transaction_id uuid,
        bank_code text not null,
        nmid text not null,
        merchant_id uuid,
        outlet_id uuid,
        bill_number text not null,
        gross_amount bigint,
        reason text not null check (reason in ('unknown_bill_number', 'other_outlet', 'amount_mismatch', 'expired', 'cancelled', 'already_paid')),
        qris_payment_id uuid,
        transaction_at timestamptz not null,
        created_at timestamptz not null
      );
      create index qris_unmatched_merchant_idx on "transaction".qris_unmatched_payments (merchant_id, created_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "transaction".qris_unmatched_payments, "transaction".qris_payments;');
  }
}
