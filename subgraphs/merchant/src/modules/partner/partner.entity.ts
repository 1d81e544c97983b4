import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export type PartnerStatus = 'active' | 'suspended';
export type PartnerAuthMode = 'jwt' | 'hmac';
export type PartnerContract = 'A' | 'B';
export type PartnerAccessType = 'referral' | 'consent' | 'assignment';
export const PARTNER_ACCESS_TYPES: PartnerAccessType[] = ['referral', 'consent', 'assignment'];

/** A partner (aggregator, lender, …) reading merchant data in its scope through the partner API. */
@Entity({ tableName: 'partners' })
export class Partner {
  [OptionalProps]?: 'status' | 'createdAt' | 'sandbox';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  /** Short uppercase code, the partner_code of the partner API. */
  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'text' })
  name!: string;

  /** Merchants registered with this code (merchants.referral_code) are the partner's referrals. */
  @Property({ type: 'text', unique: true })
  referralCode!: string;

  @Property({ type: 'text' })
  status: PartnerStatus = 'active';

  /** A sandbox partner (docs/decisions/0015-demo-data-and-sandbox.md): granted sandbox merchants only. Fixed at issuance. */
  @Property({ type: 'boolean' })
  sandbox: boolean = false;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

/**
 * A credential of a partner. JWT mode: the secret is exchanged for tokens and kept only as a scrypt hash.
 * HMAC mode: the secret signs each request and is kept sealed (SecretBox), because verifying needs it.
 */
@Entity({ tableName: 'partner_credentials' })
export class PartnerCredential {
  [OptionalProps]?: 'status' | 'createdAt' | 'outletsEnabled' | 'scopes' | 'rateLimitPerMinute';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @ManyToOne(() => Partner, { fieldName: 'partner_id' })
  partner!: Partner;

  @Property({ type: 'text' })
  name!: string;

  /** Public identifier, `pk_…`. */
  @Property({ type: 'text', unique: true })
  credentialKey!: string;

  @Property({ type: 'text' })
  authMode!: PartnerAuthMode;

  @Property({ type: 'text' })
  contract!: PartnerContract;

  @Property({ type: 'text[]' })
  scopes: string[] = [];

  @Property({ type: 'text', nullable: true })
  secretHash?: string | null;

  @Property({ type: 'text', nullable: true })
  secretSealed?: string | null;

  /** Operator switch for the four outlet endpoints (partner-api.md §4: enabled on request). */
  @Property({ type: 'boolean' })
  outletsEnabled: boolean = false;

  /** Requests per minute across the partner API (partner-api.md §8: 60 by default). */
  @Property({ type: 'integer' })
  rateLimitPerMinute: number = 60;

  @Property({ type: 'text' })
  status: 'active' | 'revoked' = 'active';

  @Property({ type: 'datetime', nullable: true })
  revokedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

/** Why a merchant is in a partner's scope; revoked rows stay as history. */
@Entity({ tableName: 'partner_merchant_access' })
export class PartnerMerchantAccess {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  partnerId!: string;

  @Property({ type: 'uuid' })
  merchantId!: string;

  @Property({ type: 'text' })
  accessType!: PartnerAccessType;

  @Property({ type: 'datetime' })
  grantedAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  revokedAt?: Date | null;

  /** The mode of both the partner and the merchant (composite foreign keys: a grant never mixes them). */
  @Property({ type: 'boolean' })
  sandbox: boolean = false;
}
