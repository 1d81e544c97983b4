import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks and notifications on the PostgreSQL job queue (graphile-worker, docs/decisions/0031-webhooks-and-job-queue.md):
 * - `webhook_attempts`: every attempt of a delivery (automatic, manual or test), with its time, HTTP status or
 *   network error, latency, the first KiB of the answer and when the next automatic attempt is due;
 * - an endpoint can be disabled (`disabled_at`): its deliveries are `held` (not attempted, not lost) until enabled;
 * - `webhook.test` deliveries (an operator's test event) have no merchant;
 * - the deliveries the former dispatcher left pending become jobs (the queue's schema is installed before this runs).
 */
export class Migration20261129200000_job_queue extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table merchant.bank_webhook_endpoints add column disabled_at timestamptz, add column disabled_reason text;

      alter table merchant.webhook_deliveries
        alter column merchant_id drop not null,
        drop constraint webhook_deliveries_event_check,
        add constraint webhook_deliveries_event_check check (event in ('merchant.activated', 'merchant.suspended',
          'merchant.reactivated', 'merchant.terminated', 'merchant.profile_updated', 'webhook.test')),
        add constraint webhook_deliveries_merchant_check check ((merchant_id is null) = (event = 'webhook.test')),
        drop constraint webhook_deliveries_status_check,
        add constraint webhook_deliveries_status_check check (status in ('pending', 'held', 'delivered', 'failed'));
      drop index merchant.webhook_deliveries_due_idx;
      create index webhook_deliveries_status_idx on merchant.webhook_deliveries (status, created_at desc);

      create table merchant.webhook_attempts (
        id bigint generated always as identity primary key,
        delivery_id uuid not null references merchant.webhook_deliveries (id),
        kind text not null check (kind in ('automatic', 'manual', 'test')),
        schedule_no smallint check ((kind = 'automatic') = (schedule_no is not null)),
        started_at timestamptz not null,
        latency_ms integer not null check (latency_ms >= 0),
        status_code integer,
        error text,
        response_excerpt text check (octet_length(response_excerpt) <= 1024),
        next_attempt_at timestamptz
      );
      create index webhook_attempts_delivery_idx on merchant.webhook_attempts (delivery_id, id);

      select count(*) from graphile_worker.add_jobs(array(
        select row('webhook.attempt', json_build_object('delivery_id', d.id, 'kind', 'automatic', 'attempt', d.attempts + 1),
                   null, d.next_attempt_at, 10, 'webhook:' || d.id || ':' || (d.attempts + 1), null, null
               )::graphile_worker.job_spec
        from merchant.webhook_deliveries d where d.status = 'pending'));
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table merchant.webhook_attempts;
      delete from merchant.webhook_deliveries where event = 'webhook.test';
      update merchant.webhook_deliveries set status = 'pending' where status = 'held';
      drop index merchant.webhook_deliveries_status_idx;
      create index webhook_deliveries_due_idx on merchant.webhook_deliveries (status, next_attempt_at);
      alter table merchant.webhook_deliveries
        drop constraint webhook_deliveries_status_check,
        add constraint webhook_deliveries_status_check check (status in ('pending', 'delivered', 'failed')),
        drop constraint webhook_deliveries_merchant_check,
        drop constraint webhook_deliveries_event_check,
        add constraint webhook_deliveries_event_check check (event in ('merchant.activated', 'merchant.suspended',
          'merchant.reactivated', 'merchant.terminated', 'merchant.profile_updated')),
        alter column merchant_id set not null;
      alter table merchant.bank_webhook_endpoints drop column disabled_at, drop column disabled_reason;
    `);
  }
}
