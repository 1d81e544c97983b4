import { Migration } from '@mikro-orm/migrations';

/**
 * Automatic suspension (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md, "Automatic suspension"):
 * - `kyc_expires_at`: when the merchant's KYC verification stops holding (set at approval or verification to
 *   KYC_VALIDITY_MONTHS later, moved by an operator's renewal); existing verified merchants get their verification
 *   time plus 24 months, the default;
 * - `reactivated_at`: the last suspended → active move, where the inactivity window starts again (existing merchants:
 *   their last `merchant.reactivated` webhook, where one was written);
 * - `last_success_at`, `activity_checked_at`: the transaction subgraph's answer for the merchant's last successful
 *   transaction, as of the daily run that last asked (a copy: the transaction subgraph owns transactions);
 * - `suspension_warnings`: one row per (merchant, reason, due day) whose warning was sent: its primary key makes the
 *   warning once, and the suspension waits until the warning is SUSPENSION_WARNING_DAYS old.
 * None of these is a bank-facing column, so the bank-view copy's trigger sends nothing for them.
 */
export class Migration20261213100000_automatic_suspension extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table merchant.merchants
        add column kyc_expires_at timestamptz,
        add column reactivated_at timestamptz,
        add column last_success_at timestamptz,
        add column activity_checked_at timestamptz;
      update merchant.merchants set kyc_expires_at = kyc_verified_at + interval '24 months'
       where kyc_status = 'verified' and kyc_verified_at is not null;
      update merchant.merchants m set reactivated_at = d.at
        from (select merchant_id, max(created_at) as at from merchant.webhook_deliveries
               where event = 'merchant.reactivated' group by merchant_id) d
       where d.merchant_id = m.id and m.status = 'active';
      create index merchants_kyc_expiry_idx on merchant.merchants (kyc_expires_at) where status = 'active' and not sandbox;
      create table merchant.suspension_warnings (
        merchant_id uuid not null references merchant.merchants (id),
        reason text not null check (reason in ('kyc_expired', 'inactivity')),
        due_on date not null,
        due_at timestamptz not null,
        warned_at timestamptz not null,
        pushes integer not null,
        primary key (merchant_id, reason, due_on)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table merchant.suspension_warnings;
      drop index merchant.merchants_kyc_expiry_idx;
      alter table merchant.merchants drop column kyc_expires_at, drop column reactivated_at, drop column last_success_at,
        drop column activity_checked_at;
    `);
  }
}
