import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError, InputProblems, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { BankRepository } from '../bank/bank.repository';
import { type MerchantLifecycleService, type Transition, commitLifecycleChange } from '../merchant/merchant-lifecycle.service';
import { BUSINESS_ENTITY_TYPES, type BusinessEntityType, type Merchant } from '../merchant/merchant.entity';
import { MerchantRepository } from '../merchant/merchant.repository';
import { newMerchantCode } from '../merchant/merchant.service';
import { PartnerRepository } from '../partner/partner.repository';
import { ReferenceRepository } from '../reference/reference.repository';
import { EMAIL_PATTERN, merchantSnapshot, registrationSnapshot, toProfile } from '../user/profile.service';
import type { UserProfileType } from '../user/profile.type';
import { UserRepository } from '../user/user.repository';
import { deriveBusinessScale } from './business-scale';
import type { MerchantRegistration } from './registration.entity';
import { RegistrationRepository } from './registration.repository';
import { MerchantExistsError, RegistrationExistsError, RegistrationKeyError, RegistrationNotFoundError } from './registration.errors';
import type { MerchantRegistrationDecisionInput, ReviewMerchantStatusInput, SubmitMerchantRegistrationInput } from './registration.input';
import type { MerchantRegistrationRequestType, MerchantReviewResultType } from './registration.type';

const MAX_NAME = 200;
const MAX_TEXT = 300;
const MAX_NOTES = 500;
/** Largest accepted monthly revenue: 10^15 rupiah keeps every sum a safe integer. */
const MAX_REVENUE = 1_000_000_000_000_000;
const MAX_EMPLOYEES = 10_000_000;
/** The moves of POST /internal/merchant/status (core-api.md §3); approval of draft/inactive merchants is not one. */
export const STATUS_ENDPOINT_TRANSITIONS: readonly Transition[] = ['suspension', 'reactivation', 'termination'];

/**
 * Registration requests and their internal review (core-api.md §2 rules 1–5, §3): submit, review, approve,
 * and the internal status decisions on merchants, all in the merchant subgraph.
 */
export class RegistrationService {
  private readonly repo: RegistrationRepository;

  constructor(
    em: EntityManager,
    private readonly lifecycle: MerchantLifecycleService,
  ) {
    this.repo = new RegistrationRepository(em);
  }

  /** Validates everything, derives type, scale and referral, and stores the request as `pending`. */
  async submit(userId: string, input: SubmitMerchantRegistrationInput): Promise<UserProfileType> {
    // Every field is checked before answering, so that a refusal lists all of them.
    const problems = new InputProblems();
    const merchantName = problems.check(() => requiredText('merchant_name', input.merchantName, MAX_NAME)) ?? '';
    problems.check(() => checkBusinessFigures(input));
    const contactPhone = toIndonesianE164(input.contactPhone ?? '');
    if (!contactPhone) problems.add('contact_phone must be an Indonesian phone number', { field: 'contact_phone', rule: 'format' });
    const contactEmail = problems.check(() => optionalText('contact_email', input.contactEmail, 254))?.toLowerCase() ?? null;
    if (contactEmail && !EMAIL_PATTERN.test(contactEmail))
      problems.add('contact_email must be an email address', { field: 'contact_email', rule: 'format' });
    const postalCode = problems.check(() => optionalText('postal_code', input.postalCode, 5));
    if (postalCode && !/^[0-9]{5}$/.test(postalCode))
      problems.add('postal_code must be 5 digits', { field: 'postal_code', rule: 'pattern' });

    const reference = this.repo.peer(ReferenceRepository);
    const businessType = await reference.qrisBusinessType(input.businessTypeId);
    if (!businessType) {
      problems.add('business_type_id is not an active business type that accepts QRIS', { field: 'business_type_id', rule: 'reference' });
    }
    problems.throwIfAny();
    if (!contactPhone || !businessType) throw new BadInputError('contact_phone and business_type_id are required'); // recorded above
    const scale = deriveBusinessScale(await reference.allBusinessScales(), input.averageMonthlyRevenue, input.employeeCount);
    const referralCode = await this.activeReferralCode(input.referralCode);

    const users = this.repo.peer(UserRepository);
    const user = await users.byId(userId);
    if (!user) throw new NotFoundError('user');
    const merchants = await users.countLiveMembershipsOf(userId);
    if (merchants > 0) throw new MerchantExistsError();

    const regionIds = regionIdsOf(input);
    const registration = this.repo.create({
      user,
      status: 'pending',
      merchantCode: newMerchantCode(),
      merchantName,
      businessEntityType: input.businessEntityType as BusinessEntityType,
      businessTypeId: businessType.id,
      businessTypeCode: businessType.code,
      businessTypeName: businessType.name,
      mcc: businessType.mcc,
      averageMonthlyRevenue: input.averageMonthlyRevenue,
      employeeCount: input.employeeCount,
      businessScaleCode: scale.code,
      businessScaleName: scale.name,
      referralCode,
      contactPhone,
      contactEmail,
      addressLine: optionalText('address_line', input.addressLine, MAX_TEXT),
      countryName: optionalText('country_name', input.countryName, MAX_NAME),
      provinceName: optionalText('province_name', input.provinceName, MAX_NAME),
      cityName: optionalText('city_name', input.cityName, MAX_NAME),
      districtName: optionalText('district_name', input.districtName, MAX_NAME),
      subdistrictName: optionalText('subdistrict_name', input.subdistrictName, MAX_NAME),
      postalCode,
      regionIds,
      reviewNotes: optionalText('review_notes', input.reviewNotes, MAX_NOTES),
      deviceFeeServiceAccepted: input.deviceFeeServiceAccepted,
      termsOfServiceAccepted: input.termsOfServiceAccepted,
      privacyPolicyAccepted: input.privacyPolicyAccepted,
    });
    try {
      await this.repo.flush();
    } catch (error) {
      // The partial unique index decides concurrent submissions: exactly one open request per user.
      if (error instanceof UniqueConstraintViolationException) throw new RegistrationExistsError();
      throw error;
    }
    return toProfile(user, registrationSnapshot(registration));
  }

  /** pending (or already pending_review) → pending_review, with the reviewer's notes. */
  /** The operators' review queue: open requests, oldest first, optionally of one status. */
  async queue(status: 'pending' | 'pending_review' | null, first: number): Promise<MerchantRegistrationRequestType[]> {
    if (!Number.isInteger(first) || first < 1 || first > 200) throw new BadInputError('first must be between 1 and 200');
    const rows = await this.repo.queue(status, first);
    return rows.map((r) => ({
      id: r.id,
      status: r.status,
      merchantCode: r.merchantCode,
      merchantName: r.merchantName,
      businessEntityType: r.businessEntityType,
      businessTypeName: r.businessTypeName,
      businessScaleName: r.businessScaleName,
      averageMonthlyRevenue: r.averageMonthlyRevenue,
      employeeCount: r.employeeCount,
      referralCode: r.referralCode ?? null,
      applicantPhone: r.user.phone,
      reviewNotes: r.reviewNotes ?? null,
      submittedAt: r.createdAt,
    }));
  }

  async review(input: MerchantRegistrationDecisionInput): Promise<MerchantReviewResultType> {
    const notes = optionalText('review_notes', input.reviewNotes, MAX_NOTES);
    const reviewer = optionalUuid('reviewed_by_user_id', input.reviewedByUserId);
    return this.repo.transactional(async (tx) => {
      const registration = await this.lockedRequest(tx, input);
      if (!registration) throw new RegistrationNotFoundError();
      registration.status = 'pending_review';
      if (notes !== null) registration.reviewNotes = notes;
      if (reviewer !== null) registration.reviewedByUserId = reviewer;
      await tx.flush();
      return {
        id: registration.id,
        status: registration.status,
        profile: toProfile(registration.user, registrationSnapshot(registration)),
      };
    });
  }

  /**
   * The request becomes an active, KYC-verified merchant with the same id and merchant code, its data and
   * consents, reviewed now; its user becomes the owner; the request is deleted — one transaction. Retrying an
   * approval that already happened (same request id, or the phone of a user whose merchant came from an
   * approval) answers the merchant again, so a caller that lost the answer can complete its next steps.
   */
  async approve(input: MerchantRegistrationDecisionInput): Promise<MerchantReviewResultType> {
    const notes = optionalText('review_notes', input.reviewNotes, MAX_NOTES);
    const reviewer = optionalUuid('reviewed_by_user_id', input.reviewedByUserId);
    const bankCode = optionalText('bank_code', input.bankCode, 12)?.toUpperCase() ?? null;
    return this.repo.transactional(async (tx) => {
      const registration = await this.lockedRequest(tx, input);
      if (!registration) return this.approvedBefore(tx, input);
      const bank = bankCode ? await tx.peer(BankRepository).byCode(bankCode) : null;
      if (bankCode && !bank) throw new BadInputError(`unknown bank_code ${bankCode}`);
      // A registration becomes a live merchant (docs/decisions/0015-demo-data-and-sandbox.md): sandbox merchants are issued, not registered.
      if (bank?.sandbox) throw new BadInputError(`bank_code ${bankCode} is a sandbox bank: a registration becomes a live merchant`);
      const now = new Date();
      const merchants = tx.peer(MerchantRepository);
      const merchant = merchants.create({
        id: registration.id,
        merchantCode: registration.merchantCode,
        name: registration.merchantName,
        legalName: registration.merchantName,
        status: 'active',
        categoryCode: registration.mcc,
        categoryName: registration.businessTypeName,
        phone: registration.contactPhone,
        email: registration.contactEmail ?? null,
        addressLine: registration.addressLine ?? null,
        addressCity: registration.cityName ?? null,
        addressProvince: registration.provinceName ?? null,
        addressPostalCode: registration.postalCode ?? null,
        addressDistrict: registration.districtName ?? null,
        addressSubdistrict: registration.subdistrictName ?? null,
        regionIds: registration.regionIds,
        kycStatus: 'verified',
        kycVerifiedAt: now,
        kycExpiresAt: this.lifecycle.kycExpiryFrom(now),
        bank,
        referralCode: registration.referralCode ?? null,
        businessEntityType: registration.businessEntityType,
        businessTypeId: registration.businessTypeId,
        businessScaleCode: registration.businessScaleCode,
        businessScaleName: registration.businessScaleName,
        averageMonthlyRevenue: registration.averageMonthlyRevenue,
        employeeCount: registration.employeeCount,
        deviceFeeServiceAccepted: registration.deviceFeeServiceAccepted,
        termsOfServiceAccepted: registration.termsOfServiceAccepted,
        privacyPolicyAccepted: registration.privacyPolicyAccepted,
        reviewedAt: now,
        reviewNotes: notes ?? registration.reviewNotes ?? null,
        reviewedByUserId: reviewer ?? registration.reviewedByUserId ?? null,
      });
      tx.peer(UserRepository).createMembership({ merchant, user: registration.user, role: 'owner' });
      tx.remove(registration);
      // No NMID yet, so this is not the first activation: nothing goes to the bank until one is assigned.
      await commitLifecycleChange(merchants, merchant, 'draft', null, now);
      return { id: merchant.id, status: merchant.status, profile: toProfile(registration.user, merchantSnapshot(merchant)) };
    });
  }

  /** Status moves of the core status endpoint only (§3), through the lifecycle service (and its webhook outbox). */
  async changeStatus(input: ReviewMerchantStatusInput): Promise<MerchantReviewResultType> {
    const notes = optionalText('review_notes', input.reviewNotes, MAX_NOTES);
    const reviewer = optionalUuid('reviewed_by_user_id', input.reviewedByUserId);
    const merchantId = await this.merchantIdOf(input);
    const target = input.targetStatus;
    const reason =
      input.reason?.trim() || (target === 'suspended' ? 'operator_action' : target === 'deleted' ? (notes ?? 'operator_action') : null);
    const outcome = await this.lifecycle.changeStatus({
      merchantId,
      targetStatus: target,
      reason,
      transitions: STATUS_ENDPOINT_TRANSITIONS,
      review: { notes, reviewedByUserId: reviewer },
    });
    return { id: outcome.merchant.id, status: outcome.merchant.status, profile: await this.ownerProfileOf(outcome.merchant) };
  }

  private async activeReferralCode(given: string | null | undefined): Promise<string | null> {
    const code = given?.trim().toUpperCase();
    if (!code || code.length > 32) return null;
    const partner = await this.repo.peer(PartnerRepository).activeByReferralCode(code);
    return partner ? partner.referralCode : null;
  }

  /** The open request by id, else by its user's phone, locked for this transaction. */
  private async lockedRequest(tx: RegistrationRepository, input: MerchantRegistrationDecisionInput): Promise<MerchantRegistration | null> {
    const where = await this.requestKey(tx, input);
    if (!where) return null;
    return tx.lock(where);
  }

  private async requestKey(tx: RegistrationRepository, input: { requestId?: string | null; phone?: string | null }) {
    if (input.requestId) return UUID_PATTERN.test(input.requestId) ? { id: input.requestId } : null;
    if (!input.phone) throw new RegistrationKeyError();
    const phone = toIndonesianE164(input.phone);
    if (!phone) throw new BadInputError('phone must be an Indonesian phone number');
    const user = await tx.peer(UserRepository).byPhone(phone);
    return user ? { user: user.id } : null;
  }

  private async approvedBefore(tx: RegistrationRepository, input: MerchantRegistrationDecisionInput): Promise<MerchantReviewResultType> {
    let merchant: Merchant | null = null;
    if (input.requestId) {
      merchant = UUID_PATTERN.test(input.requestId) ? await tx.peer(MerchantRepository).reviewedById(input.requestId) : null;
    } else if (input.phone) {
      const phone = toIndonesianE164(input.phone)!;
      const owner = await tx.peer(UserRepository).reviewedOwnedByPhone(phone);
      merchant = owner?.merchant ?? null;
    }
    if (!merchant) throw new RegistrationNotFoundError();
    return { id: merchant.id, status: merchant.status, profile: await this.ownerProfileOf(merchant) };
  }

  private async merchantIdOf(input: ReviewMerchantStatusInput): Promise<string> {
    if (input.merchantId) return input.merchantId;
    if (!input.phone) throw new BadInputError('give merchant_id or phone');
    const phone = toIndonesianE164(input.phone);
    if (!phone) throw new BadInputError('phone must be an Indonesian phone number');
    const owned = await this.repo.peer(UserRepository).ownedByPhone(phone);
    const merchant = owned.find((m) => m.merchant.status === 'active')?.merchant ?? owned[0]?.merchant;
    if (!merchant) throw new NotFoundError('merchant');
    return merchant.id;
  }

  /** The merchant's owner (the oldest live owner membership) with the merchant as snapshot; null without one. */
  private async ownerProfileOf(merchant: Merchant): Promise<UserProfileType | null> {
    const owner = await this.repo.peer(UserRepository).firstOwnerOf(merchant.id);
    return owner ? toProfile(owner.user, merchantSnapshot(merchant)) : null;
  }
}

function requiredText(name: string, value: string | null | undefined, max: number): string {
  const text = optionalText(name, value, max);
  if (!text) throw new BadInputError(`${name} is required`, { field: name, rule: 'required' });
  return text;
}

function optionalText(name: string, value: string | null | undefined, max: number): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (trimmed.length > max) throw new BadInputError(`${name} must be at most ${max} characters`, { field: name, rule: 'maxLength' });
  return trimmed;
}

function optionalUuid(name: string, value: string | null | undefined): string | null {
  if (!value) return null;
  if (!UUID_PATTERN.test(value)) throw new BadInputError(`${name} must be a UUID`, { field: name, rule: 'format' });
  return value;
}

/** The business entity type, revenue and employee count the scale is derived from, checked. */
function checkBusinessFigures(input: SubmitMerchantRegistrationInput): void {
  const problems = new InputProblems();
  if (!(BUSINESS_ENTITY_TYPES as readonly string[]).includes(input.businessEntityType)) {
    problems.add(`business_entity_type must be one of ${BUSINESS_ENTITY_TYPES.join(', ')}`, {
      field: 'business_entity_type',
      rule: 'enum',
      allowed: BUSINESS_ENTITY_TYPES,
    });
  }
  if (!Number.isSafeInteger(input.averageMonthlyRevenue) || input.averageMonthlyRevenue < 0 || input.averageMonthlyRevenue > MAX_REVENUE) {
    problems.add(`average_monthly_revenue must be a whole number of rupiah between 0 and ${MAX_REVENUE}`, {
      field: 'average_monthly_revenue',
      rule: 'maximum',
    });
  }
  if (!Number.isInteger(input.employeeCount) || input.employeeCount < 0 || input.employeeCount > MAX_EMPLOYEES) {
    problems.add(`employee_count must be a whole number between 0 and ${MAX_EMPLOYEES}`, { field: 'employee_count', rule: 'maximum' });
  }
  problems.throwIfAny();
}

/** The region ids the request names (each optional, at most 32 characters), by field name. */
function regionIdsOf(input: SubmitMerchantRegistrationInput): Record<string, string> {
  return Object.fromEntries(
    (
      [
        ['country_id', input.countryId],
        ['province_id', input.provinceId],
        ['city_id', input.cityId],
        ['district_id', input.districtId],
        ['subdistrict_id', input.subdistrictId],
        ['postal_code_id', input.postalCodeId],
      ] as const
    ).flatMap(([key, value]) => {
      const text = optionalText(key, value, 32);
      return text ? [[key, text]] : [];
    }),
  );
}
