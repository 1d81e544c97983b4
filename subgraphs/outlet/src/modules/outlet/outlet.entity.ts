import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export const NMID_STATUSES = ['active', 'suspended'] as const;
export type NmidStatus = (typeof NMID_STATUSES)[number];

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

  /** QRIS national merchant ID, `ID` + 10–15 digits; unique over all outlets, soft-deleted ones included. */
  @Property({ type: 'text', nullable: true, unique: true })
  nmid?: string | null;

  /** Set by the issuing bank (`nmid.status_changed`); kept when no NMID is assigned. */
  @Property({ type: 'text' })
  nmidStatus: NmidStatus = 'active';

  /** Code of the bank that issued the NMID; a bank principal sees only the NMIDs of its own code. */
  @Property({ type: 'text', nullable: true })
  nmidBankCode?: string | null;

  @Property({ type: 'datetime', nullable: true })
  nmidAssignedAt?: Date | null;

  /** A manual correction of the outlet's static QRIS (docs/decisions/0201-qris-payloads.md); dropped with its NMID. */
  @Property({ type: 'text', nullable: true })
  qrisStaticPayload?: string | null;

  /** Acquirer merchant ID; unique when set. */
  @Property({ type: 'text', nullable: true, unique: true })
  mid?: string | null;

  @Property({ type: 'text', nullable: true })
  addressLine?: string | null;

  @Property({ type: 'text', nullable: true })
  city?: string | null;

  @Property({ type: 'text', nullable: true })
  province?: string | null;

  @Property({ type: 'text', nullable: true })
  postalCode?: string | null;

  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Property({ type: 'boolean' })
  isDefault: boolean = false;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  deletedAt?: Date | null;
}
