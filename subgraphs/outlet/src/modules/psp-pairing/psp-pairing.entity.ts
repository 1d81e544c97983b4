import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export const PAIRING_STATUSES = ['active', 'inactive'] as const;
export type PairingStatus = (typeof PAIRING_STATUSES)[number];

/** A PSP's identifiers paired with a merchant's device (card type, MID, TID at that PSP); soft-deleted. */
@Entity({ tableName: 'psp_pairings' })
export class PspPairing {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  merchantId!: string;

  @Property({ type: 'uuid', nullable: true })
  terminalId?: string | null;

  @Property({ type: 'text' })
  pspCode!: string;

  @Property({ type: 'text' })
  pspName!: string;

  @Property({ type: 'text', nullable: true })
  kodeKartu?: string | null;

  @Property({ type: 'text', nullable: true })
  namaKartu?: string | null;

  @Property({ type: 'text', nullable: true })
  pspMid?: string | null;

  @Property({ type: 'text', nullable: true })
  pspTid?: string | null;

  @Property({ type: 'text' })
  pairingStatus!: PairingStatus;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  deletedAt?: Date | null;
}
