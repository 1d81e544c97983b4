import { Migration } from '@mikro-orm/migrations';

/**
 * `createQrisPayment` builds the outlet's static QRIS from this copy (docs/decisions/0201-qris-payloads.md, "Scope"):
 * the merchant's name, business scale and address city and postal code, and each NMID's outlet city, postal code and
 * stored correction, as the owners' jobs now carry them (their migrations of the same name enqueue every merchant).
 */
export class Migration20261207200000_payment_target_qris_fields extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table transaction.payment_target_merchants
        add column name text, add column business_scale_code text, add column address_city text, add column address_postal_code text;
      alter table transaction.payment_targets
        add column city text, add column postal_code text, add column qris_static_payload text;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table transaction.payment_target_merchants
        drop column name, drop column business_scale_code, drop column address_city, drop column address_postal_code;
      alter table transaction.payment_targets drop column city, drop column postal_code, drop column qris_static_payload;
    `);
  }
}
