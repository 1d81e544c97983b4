import { Migration } from '@mikro-orm/migrations';

/**
 * Bank payment-event intake and settlements: the MDR table (rate by the merchant's MCC), settlements, the
 * payment-event inbox, and the transaction columns they fill (bank, NMID, terminal, references, payer, MDR
 * and fees, refunds, settlement).
 */
export class Migration20261123000000_payment_intake extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- MDR: one rate per segment; a merchant category code (MCC) belongs to at most one segment, every other
      -- MCC (and a merchant without one) pays the rate of the one default segment.
      create table "transaction".mdr_segments (
        segment text primary key,
        rate numeric(6, 4) not null constraint mdr_segments_rate_check check (rate >= 0 and rate < 1),
        is_default boolean not null default false,
        description text not null
      );
      create unique index mdr_segments_one_default_idx on "transaction".mdr_segments (is_default) where is_default;
      create table "transaction".mdr_category_segments (
        category_code text primary key constraint mdr_category_segments_code_check check (category_code ~ '^[0-9]{4}$'),
        segment text not null references "transaction".mdr_segments (segment)
      );
      insert into "transaction".mdr_segments (segment, rate, is_default, description) values
        ('regular', 0.0070, true, 'every MCC not listed in another segment'),
        ('education', 0.0060, false, 'schools, colleges, universities and other education'),
        ('fuel', 0.0040, false, 'fuel stations'),
        ('government_social', 0.0000, false, 'government services, charities and religious organisations');
      insert into "transaction".mdr_category_segments (category_code, segment) values
        ('8211', 'education'), ('8220', 'education'), ('8241', 'education'), ('8244', 'education'), ('8249', 'education'), ('8299', 'education'),
        ('5541', 'fuel'), ('5542', 'fuel'),
        ('9211', 'government_social'), ('9222', 'government_social'), ('9311', 'government_social'), ('9399', 'government_social'),
        ('8398', 'government_social'), ('8661', 'government_social');

      -- A bank's daily settlement of one NMID. Both of the bank's ids are unique per bank: a replay is a duplicate.
      create table "transaction".settlements (
        id uuid primary key,
        bank_code text not null,
        external_event_id text not null,
        settlement_id text not null,
        nmid text not null,
        merchant_id uuid,
        outlet_id uuid,
        gross_amount bigint not null,
        mdr_total bigint not null,
        net_amount bigint not null,
        settlement_date date not null,
        completed_at timestamptz not null,
        payload jsonb not null,
        status text not null constraint settlements_status_check check (status in ('success', 'rejected')),
        error_code text,
        matched_count integer not null default 0,
        matched_amount bigint not null default 0,
        received_at timestamptz not null,
        constraint settlements_bank_code_settlement_id_key unique (bank_code, settlement_id),
        constraint settlements_bank_code_external_event_id_key unique (bank_code, external_event_id),
        constraint settlements_amounts_check check (gross_amount >= 0 and mdr_total >= 0 and net_amount = gross_amount - mdr_total and net_amount >= 0),
        constraint settlements_error_code_check check ((status = 'rejected') = (error_code is not null))
      );

      -- Rows written before event intake (demo data) have no bank; the unique pair ignores them (nulls are distinct).
      alter table "transaction".transactions
        add column bank_code text,
        add column nmid text,
        add column terminal_id uuid,
        add column external_reference text,
        add column rrn text,
        add column payer_bank_code text,
        add column payer_bank_name text,
        add column payer_name_masked text,
        add column payment_method text not null default 'qris',
        add column currency text not null default 'IDR',
        add column mdr_rate numeric(6, 4) not null default 0,
        add column mdr_fee_amount bigint not null default 0,
        add column net_amount_after_mdr bigint,
        add column mdr_fee_bank bigint not null default 0,
        add column switching_fee bigint not null default 0,
        add column platform_fee bigint not null default 0,
        add column refunded_amount bigint not null default 0,
        add column settlement_status text not null default 'unsettled',
        add column settled_at timestamptz,
        add column settlement_ref uuid constraint transactions_settlement_ref_fkey references "transaction".settlements (id),
        add column updated_at timestamptz;
      update "transaction".transactions set net_amount_after_mdr = gross_amount - mdr_fee_amount, updated_at = created_at;
      alter table "transaction".transactions
        alter column net_amount_after_mdr set not null,
        alter column updated_at set not null,
        add constraint transactions_bank_code_transaction_code_key unique (bank_code, transaction_code),
        add constraint transactions_mdr_check check (mdr_rate >= 0 and mdr_rate < 1 and mdr_fee_amount between 0 and gross_amount
          and net_amount_after_mdr = gross_amount - mdr_fee_amount),
        add constraint transactions_fees_check check (mdr_fee_bank >= 0 and switching_fee >= 0 and platform_fee >= 0),
        add constraint transactions_refunded_amount_check check (refunded_amount between 0 and gross_amount),
        add constraint transactions_settlement_check check (settlement_status in ('unsettled', 'settled')
          and (settlement_status = 'settled') = (settled_at is not null));
      -- refund and reversal look-ups (transaction_code is covered by the unique pair)
      create index transactions_bank_reference_idx on "transaction".transactions (bank_code, external_reference) where external_reference is not null;
      create index transactions_bank_rrn_idx on "transaction".transactions (bank_code, rrn) where rrn is not null;
      -- settlement matching: a bank's unsettled successes of one outlet or NMID, by time
      create index transactions_unsettled_outlet_idx on "transaction".transactions (outlet_id, transaction_at)
        where status = 'success' and settlement_status = 'unsettled';
      create index transactions_unsettled_nmid_idx on "transaction".transactions (nmid, transaction_at)
        where status = 'success' and settlement_status = 'unsettled';

      -- Every payment event a bank delivered, applicable or not; (bank, external_event_id) is the de-duplication.
      -- The transaction is written after its event in the same database transaction, so the reference is deferred.
      create table "transaction".payment_events (
        id uuid primary key,
        bank_code text not null,
        external_event_id text not null,
        event_type text not null,
        payload jsonb not null,
        nmid text not null,
        merchant_id uuid,
        outlet_id uuid,
        multi_outlet boolean not null default false,
        terminal_id uuid,
        transaction_id uuid constraint payment_events_transaction_id_fkey references "transaction".transactions (id) deferrable initially deferred,
        status text not null constraint payment_events_status_check check (status in ('success', 'rejected')),
        flow text not null,
        error_code text,
        applied boolean not null,
        applied_at timestamptz,
        received_at timestamptz not null,
        constraint payment_events_bank_code_external_event_id_key unique (bank_code, external_event_id),
        constraint payment_events_error_code_check check ((status = 'rejected') = (error_code is not null))
      );
      create index payment_events_transaction_id_idx on "transaction".payment_events (transaction_id) where transaction_id is not null;
      create index payment_events_received_at_idx on "transaction".payment_events (received_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table "transaction".payment_events;
      drop index "transaction".transactions_bank_reference_idx;
      drop index "transaction".transactions_bank_rrn_idx;
      drop index "transaction".transactions_unsettled_outlet_idx;
      drop index "transaction".transactions_unsettled_nmid_idx;
      alter table "transaction".transactions
        drop constraint transactions_bank_code_transaction_code_key,
        drop constraint transactions_mdr_check,
        drop constraint transactions_fees_check,
        drop constraint transactions_refunded_amount_check,
        drop constraint transactions_settlement_check,
        drop column bank_code, drop column nmid, drop column terminal_id, drop column external_reference, drop column rrn,
        drop column payer_bank_code, drop column payer_bank_name, drop column payer_name_masked, drop column payment_method,
        drop column currency, drop column mdr_rate, drop column mdr_fee_amount, drop column net_amount_after_mdr,
        drop column mdr_fee_bank, drop column switching_fee, drop column platform_fee, drop column refunded_amount,
        drop column settlement_status, drop column settled_at, drop column settlement_ref, drop column updated_at;
      drop table "transaction".settlements;
      drop table "transaction".mdr_category_segments;
      drop table "transaction".mdr_segments;
    `);
  }
}
