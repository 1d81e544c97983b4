import { Migration } from '@mikro-orm/migrations';

/**
 * Merchant lifecycle and outbound webhooks: the NMID banks see (kept by recordNmidAssignment), when it was
 * assigned, the reason of the last status change; one webhook endpoint per bank; the transactional outbox
 * of lifecycle webhooks (one row per event, its id the envelope's event_id).
 */
export class Migration20261122200000_lifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table merchant.merchants
        add column primary_nmid text check (primary_nmid ~ '^ID[0-9]{10,15}$'),
        add column nmid_assigned_at timestamptz,
        add column status_reason text;
      -- an NMID belongs to one merchant (the outlet subgraph enforces the same for outlets)
      create unique index merchants_primary_nmid_key on merchant.merchants (primary_nmid);
      -- visible to a bank means an NMID was assigned by then; the NMID itself lives in the outlet schema
      update merchant.merchants set nmid_assigned_at = psp_visible_at where psp_visible_at is not null;

      create table merchant.bank_webhook_endpoints (
        bank_id uuid primary key references merchant.banks (id),
        url text not null check (url ~ '^https?://'),
        secret_sealed text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );

      create table merchant.webhook_deliveries (
        id uuid primary key,
        bank_id uuid not null references merchant.banks (id),
        merchant_id uuid not null references merchant.merchants (id),
        event text not null check (event in ('merchant.activated', 'merchant.suspended', 'merchant.reactivated', 'merchant.terminated', 'merchant.profile_updated')),
        payload jsonb not null,
        status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
        attempts integer not null default 0 check (attempts >= 0),
        next_attempt_at timestamptz not null,
        last_error text,
        last_status_code integer,
        created_at timestamptz not null,
        delivered_at timestamptz,
        updated_at timestamptz not null
      );
      -- the dispatcher's claim: due pending rows in order
      create index webhook_deliveries_due_idx on merchant.webhook_deliveries (status, next_attempt_at);
      -- operator listing per bank, newest first
      create index webhook_deliveries_bank_idx on merchant.webhook_deliveries (bank_id, created_at desc);
      create index webhook_deliveries_merchant_idx on merchant.webhook_deliveries (merchant_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table merchant.webhook_deliveries, merchant.bank_webhook_endpoints;
      drop index merchant.merchants_primary_nmid_key;
      alter table merchant.merchants drop column primary_nmid, drop column nmid_assigned_at, drop column status_reason;
    `);
  }
}
