import { Migration } from '@mikro-orm/migrations';

/**
 * The core app's period view (GET /merchant/transactions) and the transaction-status receiver: period sums over
 * success transactions read only this partial index (index-only with the amounts included); the stored status
 * of a gateway's transaction code is found per merchant.
 */
export class Migration20261124200000_merchant_period extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create index transactions_merchant_success_time_idx on "transaction".transactions (merchant_id, transaction_at)
        include (gross_amount, mdr_fee_amount, platform_fee) where status = 'success';
      create index transactions_merchant_code_idx on "transaction".transactions (merchant_id, transaction_code);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop index "transaction".transactions_merchant_success_time_idx, "transaction".transactions_merchant_code_idx;');
  }
}
