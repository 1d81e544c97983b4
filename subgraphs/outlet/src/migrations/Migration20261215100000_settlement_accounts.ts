import { Migration } from '@mikro-orm/migrations';

/**
 * Settlement accounts (docs/decisions/0238-settlement-accounts.md): the account a merchant is paid into, pooled at
 * corporate level (`outlet_id` null) or an outlet's own. Every account set is a row: it is effective from
 * `effective_at` (now for a first account, after the cooling-off for a change) until a newer row of its scope becomes
 * effective, unless cancelled or superseded while pending. The account number is SecretBox-sealed; only its last four
 * digits are kept in clear. Every request, cancellation and supersession is an audit row with both accounts masked.
 *
 * A row written NOTIFYs `merchant:<id>` on `qris_invalidate` (bank lookups cached by REST are dropped,
 * docs/decisions/0010-caches-and-copies.md); so does the `settlement_account.effective` job when a change's cooling-off ends.
 */
export class Migration20261215100000_settlement_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table outlet.settlement_accounts (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid references outlet.outlets (id),
        bank_code text not null check (bank_code ~ '^[0-9]{3}$'),
        account_number_sealed text not null,
        account_number_last4 text not null check (account_number_last4 ~ '^[0-9]{4}$'),
        holder_name text not null check (char_length(holder_name) between 2 and 100),
        status text not null check (status in ('scheduled', 'cancelled', 'superseded')),
        effective_at timestamptz not null,
        requested_at timestamptz not null,
        requested_by text not null,
        ended_at timestamptz,
        ended_by text
      );
      create index settlement_accounts_scope_idx on outlet.settlement_accounts (merchant_id, outlet_id, effective_at desc)
        where status = 'scheduled';

      create table outlet.settlement_account_audit (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid,
        account_id uuid not null references outlet.settlement_accounts (id),
        action text not null check (action in ('requested', 'cancelled', 'superseded')),
        actor text not null,
        old_account text,
        new_account text,
        effective_at timestamptz,
        at timestamptz not null
      );
      create index settlement_account_audit_merchant_idx on outlet.settlement_account_audit (merchant_id, at desc);

      create function outlet.notify_settlement_account() returns trigger language plpgsql as $$
      begin
        perform pg_notify('qris_invalidate', 'merchant:' || new.merchant_id);
        return null;
      end $$;
      create trigger settlement_accounts_invalidate after insert or update on outlet.settlement_accounts
        for each row execute function outlet.notify_settlement_account();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table outlet.settlement_account_audit;
      drop table outlet.settlement_accounts;
      drop function outlet.notify_settlement_account();
    `);
  }
}
