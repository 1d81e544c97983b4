import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook attempts keep the status, error and latency of an answer, not its body (docs/decisions/0031-webhooks-and-job-queue.md):
 * an endpoint's answer is never shown to operators, so a URL cannot relay what it reaches.
 */
export class Migration20261210100000_webhook_attempts_without_bodies extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table merchant.webhook_attempts drop column response_excerpt`);
  }
}
