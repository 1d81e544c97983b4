import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '@lib/auth/principal';
import { BadInputError, ForbiddenError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { enqueueWebhook } from '../webhook/webhook-outbox';
import type { WebhookChange, WebhookEvent } from '../webhook/webhook.entity';
import { WebhookRepository } from '../webhook/webhook.repository';
import { MERCHANT_STATUSES, type Merchant, type MerchantStatus } from './merchant.entity';
import {
  InvalidTransitionError,
  KycExpiredError,
  KycNotVerifiedError,
  MerchantDeletedError,
  MerchantWithoutBankError,
  NmidTakenError,
} from './merchant.errors';
import { MerchantRepository } from './merchant.repository';

export const NMID_PATTERN = /^ID[0-9]{10,15}$/;
export const SUSPENSION_REASONS = ['kyc_expired', 'violation', 'operator_action', 'inactivity'] as const;
/** The suspensions the daily run makes by itself (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md). */
export type AutomaticSuspensionReason = 'kyc_expired' | 'inactivity';
/** KYC_VALIDITY_MONTHS's default, for callers without the configuration (tests, benchmarks). */
export const DEFAULT_KYC_VALIDITY_MONTHS = 24;
/** The furthest an operator may move a KYC expiry ahead. */
const MAX_KYC_RENEWAL_YEARS = 10;
const MAX_TEXT = 500;

export type Transition = 'approval' | 'suspension' | 'reactivation' | 'termination';

/** The only status moves there are (DESIGN.md §9); anything else is an invalid transition. */
export const TRANSITIONS: Record<MerchantStatus, Partial<Record<MerchantStatus, Transition>>> = {
  draft: { active: 'approval' },
  inactive: { active: 'approval' },
  active: { suspended: 'suspension', deleted: 'termination' },
  suspended: { active: 'reactivation', deleted: 'termination' },
  deleted: {},
};

/** The webhook a change announces to a bank that already sees the merchant. */
interface Announcement {
  event: WebhookEvent;
  change: WebhookChange;
}

export interface LifecycleOutcome {
  merchant: Merchant;
  previousStatus: MerchantStatus;
  /** The webhook this change put in the outbox (none without an event, an endpoint, or visibility). */
  webhook: { eventId: string; event: WebhookEvent } | null;
}

export interface ChangeStatusInput {
  merchantId: string;
  targetStatus: string;
  reason?: string | null;
  /** The transitions this caller may make (e.g. the core status endpoint's §3 table); all of TRANSITIONS when absent. */
  transitions?: readonly Transition[];
  /** The internal review behind the change, kept on the merchant. */
  review?: { notes?: string | null; reviewedByUserId?: string | null };
}

export interface ProfileChangeInput {
  merchantId: string;
  name?: string | null;
  legalName?: string | null;
  address?: { line?: string | null; city?: string | null; province?: string | null; postalCode?: string | null } | null;
  reason?: string | null;
}

/**
 * The one writer of a merchant's status (DESIGN.md §9), and of what decides its visibility to its bank.
 * Each operation locks the merchant row, applies the change and writes its webhook to the outbox in one
 * transaction: a change that fails leaves no webhook, and concurrent operations on one merchant are
 * serialised, so the first activation is announced exactly once.
 */
export class MerchantLifecycleService {
  private readonly repo: MerchantRepository;

  constructor(
    em: EntityManager,
    private readonly clock: () => Date = () => new Date(),
    /** KYC_VALIDITY_MONTHS: how long a verification holds from the moment it is made. */
    private readonly kycValidityMonths: number = DEFAULT_KYC_VALIDITY_MONTHS,
  ) {
    this.repo = new MerchantRepository(em);
  }

  /** The expiry of a KYC verification made at `at`. */
  kycExpiryFrom(at: Date): Date {
    return addMonths(at, this.kycValidityMonths);
  }

  /**
   * draft/inactive → active (approval), active → suspended (reason one of SUSPENSION_REASONS),
   * suspended → active (reactivation), active/suspended → deleted (termination, reason required).
   */
  async changeStatus(input: ChangeStatusInput): Promise<LifecycleOutcome> {
    const target = input.targetStatus as MerchantStatus;
    if (!MERCHANT_STATUSES.includes(target)) throw new BadInputError(`targetStatus must be one of ${MERCHANT_STATUSES.join(', ')}`);
    const reason = reasonFor(target, input.reason);
    return this.locked(input.merchantId, async (tx, merchant, now) => {
      const from = merchant.status;
      const transition = TRANSITIONS[from][target];
      if (!transition || (input.transitions && !input.transitions.includes(transition))) throw new InvalidTransitionError(from, target);
      // A merchant whose KYC has expired comes back by a renewal (renewKyc), not by a reactivation the next run would undo.
      if (transition === 'reactivation' && merchant.kycExpiresAt && merchant.kycExpiresAt.getTime() <= now.getTime())
        throw new KycExpiredError(merchant.kycExpiresAt);
      if (transition === 'reactivation') merchant.reactivatedAt = now;
      merchant.status = target;
      merchant.statusReason = reason;
      if (input.review) {
        merchant.reviewNotes = optionalText(input.review.notes) ?? merchant.reviewNotes ?? null;
        merchant.reviewedByUserId = input.review.reviewedByUserId ?? merchant.reviewedByUserId ?? null;
      }
      const announcement = merchant.pspVisibleAt ? statusAnnouncement(transition, from, target, reason) : null;
      return commitLifecycleChange(tx, merchant, from, announcement, now);
    });
  }

  /** KYC verified (idempotent). For a merchant its bank already sees, a changed KYC status is a profile update. */
  async verifyKyc(merchantId: string): Promise<LifecycleOutcome> {
    return this.locked(merchantId, async (tx, merchant, now) => {
      if (merchant.status === 'deleted') throw new MerchantDeletedError();
      let announcement: Announcement | null = null;
      if (merchant.kycStatus !== 'verified') {
        if (merchant.pspVisibleAt) {
          announcement = {
            event: 'merchant.profile_updated',
            change: { field: 'kyc_status', old_value: merchant.kycStatus, new_value: 'verified', reason: 'kyc_verified' },
          };
        }
        merchant.kycStatus = 'verified';
        merchant.kycVerifiedAt = now;
        merchant.kycExpiresAt = this.kycExpiryFrom(now);
      }
      return commitLifecycleChange(tx, merchant, merchant.status, announcement, now);
    });
  }

  /**
   * An operator's KYC renewal (the owner's data reviewed again): the verification holds until `expiresAt` (in the
   * future, at most 10 years ahead). An expired KYC is verified again; a merchant the daily run suspended for it
   * (`kyc_expired`) comes back (suspended → active, `merchant.reactivated` with reason `kyc_renewed`); another whose KYC
   * status changes and whose bank sees it gets `merchant.profile_updated`. Moving a valid KYC's expiry sends nothing:
   * banks do not see the date.
   */
  async renewKyc(input: { merchantId: string; expiresAt: Date }): Promise<LifecycleOutcome> {
    const expiresAt = input.expiresAt;
    if (Number.isNaN(expiresAt.getTime())) throw new BadInputError('expiresAt must be a date-time');
    const latest = addMonths(this.clock(), MAX_KYC_RENEWAL_YEARS * 12);
    if (expiresAt.getTime() > latest.getTime()) throw new BadInputError(`expiresAt must be at most ${MAX_KYC_RENEWAL_YEARS} years ahead`);
    return this.locked(input.merchantId, async (tx, merchant, now) => {
      if (expiresAt.getTime() <= now.getTime()) throw new BadInputError('expiresAt must be in the future');
      if (merchant.status === 'deleted') throw new MerchantDeletedError();
      if (merchant.kycStatus !== 'verified' && merchant.kycStatus !== 'expired') throw new KycNotVerifiedError(merchant.kycStatus);
      const from = merchant.status;
      const wasExpired = merchant.kycStatus === 'expired';
      merchant.kycExpiresAt = expiresAt;
      let announcement: Announcement | null = null;
      if (wasExpired) {
        merchant.kycStatus = 'verified';
        merchant.kycVerifiedAt = now;
      }
      if (from === 'suspended' && merchant.statusReason === 'kyc_expired') {
        merchant.status = 'active';
        merchant.statusReason = 'kyc_renewed';
        merchant.reactivatedAt = now;
        announcement = {
          event: 'merchant.reactivated',
          change: { field: 'status', old_value: 'suspended', new_value: 'active', reason: 'kyc_renewed' },
        };
      } else if (wasExpired) {
        announcement = {
          event: 'merchant.profile_updated',
          change: { field: 'kyc_status', old_value: 'expired', new_value: 'verified', reason: 'kyc_renewed' },
        };
      }
      return commitLifecycleChange(tx, merchant, from, merchant.pspVisibleAt ? announcement : null, now);
    });
  }

  /**
   * The daily run's suspension (active → suspended, `reason`), made only when `stillDue` says so under the merchant's
   * row lock, with what is stored now: another copy's run, a reactivation or a renewal that came first wins, so a
   * merchant is suspended, and announced, once. A suspension for `kyc_expired` also marks the KYC `expired`, which the
   * webhook's merchant object carries. Answers null when nothing was done.
   */
  async suspendIfDue(
    merchantId: string,
    reason: AutomaticSuspensionReason,
    stillDue: (tx: MerchantRepository, merchant: Merchant, now: Date) => Promise<boolean>,
  ): Promise<LifecycleOutcome | null> {
    try {
      return await this.locked(merchantId, async (tx, merchant, now) => {
        if (merchant.status !== 'active' || !(await stillDue(tx, merchant, now))) throw new NothingDue();
        merchant.status = 'suspended';
        merchant.statusReason = reason;
        if (reason === 'kyc_expired') merchant.kycStatus = 'expired';
        const announcement = merchant.pspVisibleAt ? statusAnnouncement('suspension', 'active', 'suspended', reason) : null;
        return commitLifecycleChange(tx, merchant, 'active', announcement, now);
      });
    } catch (error) {
      if (error instanceof NothingDue) return null;
      throw error;
    }
  }

  /**
   * Records that the merchant holds an NMID (assigned in the outlet subgraph). The first NMID becomes the one
   * banks see; recording it again, or another NMID later (another outlet), changes nothing, so retries are
   * safe. Among banks only the merchant's own bank, and only at tier 1, may record.
   */
  async recordNmidAssignment(merchantId: string, nmid: string, principal?: Principal): Promise<LifecycleOutcome> {
    if (!NMID_PATTERN.test(nmid)) throw new BadInputError('nmid must be "ID" followed by 10 to 15 digits');
    if (principal?.kind === 'bank' && principal.tier !== 1) throw new ForbiddenError('only the tier-1 PSP may record NMID assignments');
    try {
      return await this.locked(merchantId, async (tx, merchant, now) => {
        if (principal?.kind === 'bank' && merchant.bank?.id !== principal.bankId) throw new ForbiddenError("not this bank's merchant");
        if (merchant.status === 'deleted') throw new MerchantDeletedError();
        if (!merchant.bank) throw new MerchantWithoutBankError();
        if (!merchant.primaryNmid) {
          merchant.primaryNmid = nmid;
          merchant.nmidAssignedAt = now;
        }
        return commitLifecycleChange(tx, merchant, merchant.status, null, now);
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new NmidTakenError(nmid);
      throw error;
    }
  }

  /**
   * Name, legal name and address. A given value replaces the stored one (trimmed, never empty); an absent or
   * null one is kept. Nothing changed, nothing written. A merchant its bank sees gets one
   * merchant.profile_updated per call, whatever the number of fields.
   */
  async updateProfile(input: ProfileChangeInput): Promise<LifecycleOutcome> {
    const wanted: [ProfileField, string][] = [];
    const take = (field: ProfileField, inputName: string, value: string | null | undefined) => {
      if (value === undefined || value === null) return;
      const trimmed = value.trim();
      if (!trimmed) throw new BadInputError(`${inputName} must not be empty`);
      if (trimmed.length > 200) throw new BadInputError(`${inputName} must be at most 200 characters`);
      wanted.push([field, trimmed]);
    };
    take('merchant_name', 'name', input.name);
    take('legal_name', 'legalName', input.legalName);
    take('address.line', 'address.line', input.address?.line);
    take('address.city', 'address.city', input.address?.city);
    take('address.province', 'address.province', input.address?.province);
    take('address.postal_code', 'address.postalCode', input.address?.postalCode);
    if (wanted.some(([field, value]) => field === 'address.postal_code' && !/^[0-9]{5}$/.test(value))) {
      throw new BadInputError('postalCode must be 5 digits');
    }
    const reason = optionalText(input.reason) ?? 'profile_updated';
    return this.locked(input.merchantId, async (tx, merchant, now) => {
      if (merchant.status === 'deleted') throw new MerchantDeletedError();
      const changed = wanted.filter(([field, value]) => PROFILE_FIELDS[field].get(merchant) !== value);
      const oldValues = Object.fromEntries(changed.map(([field]) => [field, PROFILE_FIELDS[field].get(merchant)]));
      for (const [field, value] of changed) PROFILE_FIELDS[field].set(merchant, value);
      let announcement: Announcement | null = null;
      if (changed.length > 0 && merchant.pspVisibleAt) {
        const newValues = Object.fromEntries(changed);
        const single = changed.length === 1 ? changed[0][0] : null;
        announcement = {
          event: 'merchant.profile_updated',
          change: single
            ? { field: single, old_value: oldValues[single], new_value: newValues[single], reason }
            : { field: changed.map(([field]) => field).join(','), old_value: oldValues, new_value: newValues, reason },
        };
      }
      return commitLifecycleChange(tx, merchant, merchant.status, announcement, now);
    });
  }

  /** Runs `work` in a transaction holding the merchant's row lock (fresh from the database, bank loaded). */
  private async locked(
    merchantId: string,
    work: (tx: MerchantRepository, merchant: Merchant, now: Date) => Promise<LifecycleOutcome>,
  ): Promise<LifecycleOutcome> {
    if (!UUID_PATTERN.test(merchantId)) throw new NotFoundError('merchant');
    return this.repo.transactional(async (tx) => {
      const merchant = await tx.lockById(merchantId);
      if (!merchant) throw new NotFoundError('merchant');
      return work(tx, merchant, this.clock());
    });
  }
}

/** Leaves suspendIfDue's transaction without a change. */
class NothingDue extends Error {}

/** `at` plus `months` calendar months (UTC), the day clipped to the target month's last, as PostgreSQL adds an interval. */
export function addMonths(at: Date, months: number): Date {
  const target = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  target.setUTCHours(at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds());
  return target;
}

/**
 * First activation: the merchant is active, KYC verified and holds an NMID, and its bank does not see it
 * yet. Whichever of approval, KYC verification or NMID assignment comes last completes it.
 */
export function completesFirstActivation(m: Merchant): boolean {
  return !m.pspVisibleAt && m.status === 'active' && m.kycStatus === 'verified' && !!m.nmidAssignedAt;
}

/**
 * Writes the change and its webhook (inside the caller's transaction, `tx`): the first activation, when this
 * change completes it, makes the merchant visible and is announced as merchant.activated; otherwise the
 * given announcement, if any. The merchant is flushed first, so the envelope carries the stored updated_at.
 */
export async function commitLifecycleChange(
  tx: MerchantRepository,
  merchant: Merchant,
  previousStatus: MerchantStatus,
  announcement: Announcement | null,
  now: Date,
): Promise<LifecycleOutcome> {
  let webhook = announcement;
  if (completesFirstActivation(merchant)) {
    merchant.pspVisibleAt = now;
    webhook = {
      event: 'merchant.activated',
      change: { field: 'status', old_value: 'inactive', new_value: 'active', reason: 'kyc_verified' },
    };
  }
  await tx.flush();
  if (!webhook) return { merchant, previousStatus, webhook: null };
  const delivery = await enqueueWebhook(tx.peer(WebhookRepository), merchant, webhook.event, webhook.change, merchant.updatedAt);
  if (!delivery) return { merchant, previousStatus, webhook: null };
  await tx.flush();
  return { merchant, previousStatus, webhook: { eventId: delivery.id, event: webhook.event } };
}

function statusAnnouncement(transition: Transition, from: MerchantStatus, to: MerchantStatus, reason: string | null): Announcement | null {
  const change = (fallback: string): WebhookChange => ({ field: 'status', old_value: from, new_value: to, reason: reason ?? fallback });
  switch (transition) {
    case 'suspension':
      return { event: 'merchant.suspended', change: change('operator_action') };
    case 'reactivation':
      return { event: 'merchant.reactivated', change: change('reactivated') };
    case 'termination':
      return { event: 'merchant.terminated', change: change('merchant_request') };
    case 'approval':
      // draft/inactive merchants are never visible; their activation is the first one (handled by commitLifecycleChange).
      return null;
  }
}

/** Suspension needs one of the documented reasons, termination any reason; approval and reactivation may give one. */
function reasonFor(target: MerchantStatus, given: string | null | undefined): string | null {
  const reason = optionalText(given);
  if (target === 'suspended' && !(SUSPENSION_REASONS as readonly string[]).includes(reason ?? '')) {
    throw new BadInputError(`reason must be one of ${SUSPENSION_REASONS.join(', ')}`);
  }
  if (target === 'deleted' && !reason)
    throw new BadInputError("reason is required to delete a merchant (merchant_request or the operator's text)");
  return reason;
}

function optionalText(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (trimmed.length > MAX_TEXT) throw new BadInputError(`reason must be at most ${MAX_TEXT} characters`);
  return trimmed;
}

/** Profile fields by the name banks know them under (psp-api.md §2), as used in `change.field`. */
type ProfileField = 'merchant_name' | 'legal_name' | 'address.line' | 'address.city' | 'address.province' | 'address.postal_code';
const PROFILE_FIELDS: Record<ProfileField, { get(m: Merchant): string | null; set(m: Merchant, value: string): void }> = {
  merchant_name: { get: (m) => m.name, set: (m, v) => (m.name = v) },
  legal_name: { get: (m) => m.legalName ?? null, set: (m, v) => (m.legalName = v) },
  'address.line': { get: (m) => m.addressLine ?? null, set: (m, v) => (m.addressLine = v) },
  'address.city': { get: (m) => m.addressCity ?? null, set: (m, v) => (m.addressCity = v) },
  'address.province': { get: (m) => m.addressProvince ?? null, set: (m, v) => (m.addressProvince = v) },
  'address.postal_code': { get: (m) => m.addressPostalCode ?? null, set: (m, v) => (m.addressPostalCode = v) },
};
