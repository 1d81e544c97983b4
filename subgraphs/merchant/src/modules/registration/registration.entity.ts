import { BigIntType, Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import type { BusinessEntityType } from '../merchant/merchant.entity';
import { User } from '../user/user.entity';

export const REGISTRATION_STATUSES = ['pending', 'pending_review'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/**
 * A merchant registration waiting for internal review (core-api.md §3): not a merchant yet. Approval moves its
 * data into an active merchant (same id, same merchant_code) and deletes it; a user has at most one open.
 */
@Entity({ tableName: 'merchant_registrations' })
export class MerchantRegistration {
  [OptionalProps]?:
    'createdAt' | 'updatedAt' | 'regionIds' | 'deviceFeeServiceAccepted' | 'termsOfServiceAccepted' | 'privacyPolicyAccepted';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @Property({ type: 'text' })
  status!: RegistrationStatus;

  @Property({ type: 'text', unique: true })
  merchantCode!: string;

  @Property({ type: 'text' })
  merchantName!: string;

  @Property({ type: 'text' })
  businessEntityType!: BusinessEntityType;

  @Property({ type: 'integer' })
  businessTypeId!: number;

  @Property({ type: 'text' })
  businessTypeCode!: string;

  /** The reference business type's name; `merchant_type` on the wire. */
  @Property({ type: 'text' })
  businessTypeName!: string;

  @Property({ type: 'text' })
  mcc!: string;

  @Property({ type: new BigIntType('number') })
  averageMonthlyRevenue!: number;

  @Property({ type: 'integer' })
  employeeCount!: number;

  @Property({ type: 'text' })
  businessScaleCode!: string;

  @Property({ type: 'text' })
  businessScaleName!: string;

  /** The active partner's referral code (upper case); null for a direct registration. */
  @Property({ type: 'text', nullable: true })
  referralCode?: string | null;

  /** E.164. */
  @Property({ type: 'text' })
  contactPhone!: string;

  @Property({ type: 'text', nullable: true })
  contactEmail?: string | null;

  @Property({ type: 'text', nullable: true })
  addressLine?: string | null;

  @Property({ type: 'text', nullable: true })
  countryName?: string | null;

  @Property({ type: 'text', nullable: true })
  provinceName?: string | null;

  @Property({ type: 'text', nullable: true })
  cityName?: string | null;

  @Property({ type: 'text', nullable: true })
  districtName?: string | null;

  @Property({ type: 'text', nullable: true })
  subdistrictName?: string | null;

  @Property({ type: 'text', nullable: true })
  postalCode?: string | null;

  @Property({ type: 'json' })
  regionIds: Record<string, string> = {};

  @Property({ type: 'text', nullable: true })
  reviewNotes?: string | null;

  @Property({ type: 'uuid', nullable: true })
  reviewedByUserId?: string | null;

  @Property({ type: 'boolean' })
  deviceFeeServiceAccepted: boolean = false;

  @Property({ type: 'boolean' })
  termsOfServiceAccepted: boolean = false;

  @Property({ type: 'boolean' })
  privacyPolicyAccepted: boolean = false;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
