import { BigIntType, Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { Bank } from '../bank/bank.entity';

/** Stored lifecycle (DESIGN.md §9); registrations in review are a separate aggregate, not a merchant. */
export const MERCHANT_STATUSES = ['draft', 'inactive', 'active', 'suspended', 'deleted'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];
export type KycStatus = 'pending' | 'verified' | 'expired' | 'rejected';
export const BUSINESS_ENTITY_TYPES = ['Perseorangan', 'Badan Usaha'] as const;
export type BusinessEntityType = (typeof BUSINESS_ENTITY_TYPES)[number];

@Entity({ tableName: 'merchants' })
export class Merchant {
  [OptionalProps]?:
    | 'addressCountry'
    | 'kycStatus'
    | 'createdAt'
    | 'updatedAt'
    | 'regionIds'
    | 'deviceFeeServiceAccepted'
    | 'termsOfServiceAccepted'
    | 'privacyPolicyAccepted'
    | 'sandbox';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  /** Canonical service identity, `MRC-` prefix, never changes. */
  @Property({ type: 'text', unique: true })
  merchantCode!: string;

  /** Trade name. */
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  legalName?: string | null;

  @Property({ type: 'text' })
  status!: MerchantStatus;

  /** ISO 18245 MCC; what banks see as category_code. */
  @Property({ type: 'text', nullable: true })
  categoryCode?: string | null;

  @Property({ type: 'text', nullable: true })
  categoryName?: string | null;

  /** E.164 (+62…). */
  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  email?: string | null;

  @Property({ type: 'text', nullable: true })
  npwp?: string | null;

  @Property({ type: 'text', nullable: true })
  addressLine?: string | null;

  @Property({ type: 'text', nullable: true })
  addressCity?: string | null;

  @Property({ type: 'text', nullable: true })
  addressProvince?: string | null;

  @Property({ type: 'text', nullable: true })
  addressPostalCode?: string | null;

  @Property({ type: 'text' })
  addressCountry: string = 'ID';

  @Property({ type: 'text' })
  kycStatus: KycStatus = 'pending';

  @Property({ type: 'datetime', nullable: true })
  kycVerifiedAt?: Date | null;

  /**
   * When the KYC verification stops holding (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md,
   * "Automatic suspension"): KYC_VALIDITY_MONTHS after approval or verification, moved by an operator's renewal. An
   * active merchant past it is suspended (reason `kyc_expired`) by the daily run.
   */
  @Property({ type: 'datetime', nullable: true })
  kycExpiresAt?: Date | null;

  /** The last reactivation (suspended → active): the inactivity window starts again there. */
  @Property({ type: 'datetime', nullable: true })
  reactivatedAt?: Date | null;

  /**
   * The merchant's last successful transaction as the transaction subgraph answered the daily run that last asked
   * (a copy, written by that run only).
   */
  @Property({ type: 'datetime', nullable: true })
  lastSuccessAt?: Date | null;

  /** The acquiring bank whose NMIDs the merchant's outlets carry. */
  @ManyToOne(() => Bank, { fieldName: 'bank_id', nullable: true })
  bank?: Bank | null;

  /**
   * Sandbox data (docs/decisions/0015-demo-data-and-sandbox.md): the merchant of a sandbox bank, always its bank's mode (a composite
   * foreign key), set at creation. Live lists never show it; a live bank or partner never reaches it.
   */
  @Property({ type: 'boolean' })
  sandbox: boolean = false;

  @Property({ type: 'text', nullable: true })
  referralCode?: string | null;

  /**
   * When the merchant became visible to its bank: first activation (active, KYC verified, NMID assigned).
   * From then on the bank may look it up in any status; lists show only active ones.
   */
  @Property({ type: 'datetime', nullable: true })
  pspVisibleAt?: Date | null;

  /**
   * The NMID banks see in lifecycle webhooks: the first one recorded for the merchant (recordNmidAssignment).
   * The outlets and all their NMIDs are the outlet subgraph's; this is the merchant's own copy of the first.
   */
  @Property({ type: 'text', nullable: true })
  primaryNmid?: string | null;

  /** When the first NMID was recorded: one of the three conditions of the first activation. */
  @Property({ type: 'datetime', nullable: true })
  nmidAssignedAt?: Date | null;

  /** The reason given with the last status change (a suspension reason, the operator's text, …). */
  @Property({ type: 'text', nullable: true })
  statusReason?: string | null;

  // Registration data an approved merchant carries (core-api.md §2); null for merchants onboarded otherwise.

  @Property({ type: 'text', nullable: true })
  businessEntityType?: BusinessEntityType | null;

  /** Reference business type (merchant.business_types.id); its name is categoryName, its MCC categoryCode. */
  @Property({ type: 'integer', nullable: true })
  businessTypeId?: number | null;

  @Property({ type: 'text', nullable: true })
  businessScaleCode?: string | null;

  @Property({ type: 'text', nullable: true })
  businessScaleName?: string | null;

  @Property({ type: new BigIntType('number'), nullable: true })
  averageMonthlyRevenue?: number | null;

  @Property({ type: 'integer', nullable: true })
  employeeCount?: number | null;

  @Property({ type: 'text', nullable: true })
  addressDistrict?: string | null;

  @Property({ type: 'text', nullable: true })
  addressSubdistrict?: string | null;

  /** The region reference ids the registration named (country, province, city, district, subdistrict, postal code). */
  @Property({ type: 'json' })
  regionIds: Record<string, string> = {};

  @Property({ type: 'boolean' })
  deviceFeeServiceAccepted: boolean = false;

  @Property({ type: 'boolean' })
  termsOfServiceAccepted: boolean = false;

  @Property({ type: 'boolean' })
  privacyPolicyAccepted: boolean = false;

  /** When an internal reviewer approved the registration this merchant came from (or last decided its status). */
  @Property({ type: 'datetime', nullable: true })
  reviewedAt?: Date | null;

  @Property({ type: 'text', nullable: true })
  reviewNotes?: string | null;

  @Property({ type: 'uuid', nullable: true })
  reviewedByUserId?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
