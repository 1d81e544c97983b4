import { Migration } from '@mikro-orm/migrations';

/**
 * The feed's push notifications are jobs of the PostgreSQL job queue (docs/decisions/0031-webhooks-and-job-queue.md), enqueued with
 * each new feed row: the claim columns of the former REST push dispatcher go. Rows of the last hour it had not pushed
 * yet become jobs first (older ones are stale news for a "payment received" push).
 */
export class Migration20261129200100_payment_push_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      select count(*) from graphile_worker.add_jobs(array(
        select row('payment_received', json_build_object('event_id', f.id::text, 'merchant_id', f.merchant_id, 'outlet_id', f.outlet_id,
                   'transaction_id', f.transaction_id, 'transaction_code', f.transaction_code, 'amount', f.amount,
                   'qris_payment_id', f.qris_payment_id),
                   null, null, 10, 'payment_received:' || f.id, null, null)::graphile_worker.job_spec
        from "transaction".payment_feed f
        where f.notified_at is null and f.notify_attempts < 5 and f.created_at > now() - interval '1 hour'
          and f.kind in ('transaction.success', 'qris_payment.paid')));
      drop index "transaction".payment_feed_unnotified_idx;
      alter table "transaction".payment_feed drop column notify_attempts, drop column notify_claimed_until, drop column notified_at;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table "transaction".payment_feed
        add column notify_attempts integer not null default 0,
        add column notify_claimed_until timestamptz,
        add column notified_at timestamptz;
      update "transaction".payment_feed set notified_at = created_at;
      create index payment_feed_unnotified_idx on "transaction".payment_feed (id) where notified_at is null;
    `);
  }
}
