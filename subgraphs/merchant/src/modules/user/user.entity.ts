import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { Merchant } from '../merchant/merchant.entity';

export type MerchantRole = 'owner' | 'admin' | 'staff' | 'viewer';
export const MERCHANT_ROLES: MerchantRole[] = ['owner', 'admin', 'staff', 'viewer'];

/** An app user, identified by an Indonesian phone number (E.164). */
@Entity({ tableName: 'users' })
export class User {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  /** E.164 (+62…), unique. */
  @Property({ type: 'text', unique: true })
  phone!: string;

  @Property({ type: 'text', nullable: true })
  fullName?: string | null;

  @Property({ type: 'text', nullable: true })
  displayName?: string | null;

  /** National ID number (NIK): personal data, never sent to partners or banks. */
  @Property({ type: 'text', nullable: true })
  nik?: string | null;

  @Property({ type: 'text', nullable: true })
  gender?: string | null;

  @Property({ type: 'text', nullable: true })
  addressLine?: string | null;

  @Property({ type: 'text', nullable: true })
  avatarUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  email?: string | null;

  @Property({ type: 'datetime', nullable: true })
  emailVerifiedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  phoneVerifiedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** A user's membership of a merchant with an enterprise role; a revoked membership is kept as history. */
@Entity({ tableName: 'merchant_users' })
export class MerchantUser {
  [OptionalProps]?: 'createdAt' | 'outletIds';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @ManyToOne(() => Merchant, { fieldName: 'merchant_id' })
  merchant!: Merchant;

  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @Property({ type: 'text' })
  role!: MerchantRole;

  /** Outlets the member may act on; empty = all outlets. */
  @Property({ type: 'uuid[]' })
  outletIds: string[] = [];

  /** Staff limited to one device (terminal id of the outlet subgraph). */
  @Property({ type: 'uuid', nullable: true })
  terminalId?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  revokedAt?: Date | null;
}
