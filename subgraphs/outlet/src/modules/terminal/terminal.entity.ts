import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export const TERMINAL_STATUSES = ['online', 'offline', 'inactive'] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/** The device operator tooling provisions with a new outlet. */
export const DEFAULT_TERMINAL_MODEL = 'QRIS Soundbox S1';

/**
 * A payment device (e.g. a QRIS soundbox) at an outlet. `merchantId` repeats the outlet's merchant so that
 * per-merchant lookups need no join; a composite foreign key keeps the two in agreement.
 */
@Entity({ tableName: 'terminals' })
export class Terminal {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid', index: true })
  merchantId!: string;

  @Property({ type: 'uuid', index: true })
  outletId!: string;

  /** Terminal ID as the acquirer knows it; unique when set. */
  @Property({ type: 'text', nullable: true, unique: true })
  tid?: string | null;

  @Property({ type: 'text', nullable: true })
  serialNumber?: string | null;

  @Property({ type: 'text', nullable: true })
  model?: string | null;

  @Property({ type: 'text', nullable: true })
  firmwareVersion?: string | null;

  @Property({ type: 'text', nullable: true })
  brandName?: string | null;

  /** e.g. Soundbox, EDC, Android POS. */
  @Property({ type: 'text', nullable: true })
  deviceTypeName?: string | null;

  /** Where the device stands, e.g. Kasir depan. */
  @Property({ type: 'text', nullable: true })
  placementName?: string | null;

  @Property({ type: 'text' })
  status!: TerminalStatus;

  @Property({ type: 'datetime', nullable: true })
  lastSeenAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
