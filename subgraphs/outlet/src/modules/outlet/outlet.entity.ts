import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

/** A business point of a merchant: its own NMID, MID and address; a single-counter merchant has one default outlet. */
@Entity({ tableName: 'outlets' })
@Unique({ properties: ['merchantId', 'code'] })
export class Outlet {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  /** The owning merchant (merchant subgraph); a plain id, no cross-schema foreign key. */
  @Property({ type: 'uuid', index: true })
  merchantId!: string;

  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true, unique: true })
  nmid?: string | null;

  @Property({ type: 'boolean' })
  isDefault: boolean = false;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  deletedAt?: Date | null;
}
