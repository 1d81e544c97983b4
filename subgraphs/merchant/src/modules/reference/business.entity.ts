import { BigIntType, Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';

@Entity({ tableName: 'business_type_categories' })
export class BusinessTypeCategory {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'text' })
  name!: string;
}

@Entity({ tableName: 'business_types' })
export class BusinessType {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'text' })
  name!: string;

  @ManyToOne(() => BusinessTypeCategory, { fieldName: 'category_id' })
  category!: BusinessTypeCategory;

  /** ISO 18245 merchant category code, what banks see as the merchant's category_code. */
  @Property({ type: 'text' })
  mcc!: string;

  @Property({ type: 'integer' })
  benchmarkTransactions!: number;

  @Property({ type: new BigIntType('number') })
  benchmarkTicketSize!: number;

  /** Fraction of revenue, e.g. 0.6500; kept as a decimal string so no float rounding creeps in. */
  @Property({ type: 'decimal', precision: 5, scale: 4 })
  baseOperationalCostRate!: string;

  @Property({ type: 'boolean' })
  isActive!: boolean;

  @Property({ type: 'boolean' })
  qrisSupported!: boolean;
}

/**
 * Business scales after PP 7/2021 (capital excluding land and buildings, annual turnover; monthly
 * turnover = annual / 12) with BPS employee bands. A null maximum means unbounded.
 */
@Entity({ tableName: 'business_scales' })
export class BusinessScale {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: new BigIntType('number') })
  modalUsahaMin!: number;

  @Property({ type: new BigIntType('number'), nullable: true })
  modalUsahaMax!: number | null;

  @Property({ type: new BigIntType('number') })
  omzetPerBulanMin!: number;

  @Property({ type: new BigIntType('number'), nullable: true })
  omzetPerBulanMax!: number | null;

  @Property({ type: 'integer' })
  jumlahKaryawanMin!: number;

  @Property({ type: 'integer', nullable: true })
  jumlahKaryawanMax!: number | null;

  @Property({ type: 'integer' })
  sortOrder!: number;
}
