import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

/** Stored lifecycle (DESIGN.md §9); registrations in review are a separate aggregate, not a merchant. */
export const MERCHANT_STATUSES = ['draft', 'inactive', 'active', 'suspended', 'deleted'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];

@Entity({ tableName: 'merchants' })
export class Merchant {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  /** Canonical service identity, `MRC-` prefix, never changes. */
  @Property({ type: 'text', unique: true })
  merchantCode!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  status!: MerchantStatus;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
