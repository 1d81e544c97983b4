import { Migration } from '@mikro-orm/migrations';

/**
 * A dynamic QRIS takes its outlet's merchant and NMID from the copy of payment targets, by outlet
 * (docs/decisions/0201-qris-payloads.md, "Scope"): an index on `outlet_id`.
 */
export class Migration20261207100000_payment_target_outlet_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index payment_targets_outlet_id_idx on transaction.payment_targets (outlet_id);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index transaction.payment_targets_outlet_id_idx;`);
  }
}
