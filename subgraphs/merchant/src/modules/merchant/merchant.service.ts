import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { banksOf } from '@lib/domain/access/bank-scope';
import { decodeIdCursor, encodeIdCursor, keysetPage } from '@lib/db/keyset';
import type { Principal } from '@lib/auth/principal';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN, loaderByKey } from '@lib/federation/loaders';
import { isSandboxNmid } from '@lib/domain/sandbox/sandbox-nmid';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { BankRepository } from '../bank/bank.repository';
import type { User } from '../user/user.entity';
import { UserRepository } from '../user/user.repository';
import { DEFAULT_KYC_VALIDITY_MONTHS, NMID_PATTERN, addMonths, commitLifecycleChange } from './merchant-lifecycle.service';
import type { Merchant } from './merchant.entity';
import { NmidTakenError } from './merchant.errors';
import { type MerchantFields, MerchantRepository } from './merchant.repository';
import type { MerchantPageType, MerchantType } from './merchant.type';

export const MAX_PAGE = 500;
/** Operators' merchant search page. */
export const MAX_SEARCH_PAGE = 100;

export interface BankMerchantFilter {
  first: number;
  after?: string | null;
  updatedSince?: Date | null;
  categoryCode?: string | null;
}

export interface OnboardedMerchantInput {
  name: string;
  legalName?: string;
  bankCode: string;
  categoryCode?: string;
  categoryName?: string;
  /** micro, small, medium or large (reference data): its QRIS criteria, which its MDR depends on. */
  businessScaleCode?: string;
  phone?: string;
  email?: string;
  npwp?: string;
  address?: { line?: string; city?: string; province?: string; postalCode?: string };
  referralCode?: string;
  /** The merchant's first NMID (already assigned to its outlet); completes the first activation. */
  primaryNmid?: string;
  /** A merchant id chosen by the caller (UUIDv7), e.g. to create the outlets first. */
  id?: string;
  /**
   * The phone of an app user who becomes the merchant's owner (created when unknown), so the app can log in to it:
   * e.g. an app team's test phone for a sandbox merchant.
   */
  ownerPhone?: string;
}

export class MerchantService {
  /** Batches every merchant lookup of a request (root fields and `_entities`) into one query. */
  private readonly byId;

  private readonly repo: MerchantRepository;

  constructor(
    em: EntityManager,
    /** KYC_VALIDITY_MONTHS: an onboarded merchant's KYC holds this long. */
    private readonly kycValidityMonths: number = DEFAULT_KYC_VALIDITY_MONTHS,
  ) {
    this.repo = new MerchantRepository(em);
    // Read-only, and on every federated path (a bank batch resolves dozens at once): plain rows, no entities.
    this.byId = loaderByKey(
      (ids: string[]) => this.repo.rowsByIds(ids),
      (row) => row.id,
    );
  }

  /**
   * The merchant as `principal` may see it: a bank sees only its own merchants, and only once they have
   * been activated for it — except the tier-1 PSP, which completes activations by assigning NMIDs and so
   * sees its own merchants before. An app user sees only the merchant it acts for (none without a membership).
   * Anyone else allowed to call sees every merchant. Otherwise null.
   */
  async findById(id: string, principal: Principal): Promise<MerchantType | null> {
    if (principal.kind === 'user' && principal.merchantId?.toLowerCase() !== id.toLowerCase()) return null;
    const merchant = UUID_PATTERN.test(id) ? await this.byId.load(id) : null;
    if (!merchant) return null;
    // A micro-batch of several banks ('banks') sees what one of them sees. It reaches merchants only through
    // pspOutletsByNmid, whose outlet subgraph has matched each item's merchant to the item's bank; outletsByNmid,
    // whose merchants come from here, takes one bank only (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md).
    const banks = banksOf(principal);
    if (banks.length > 0 && !banks.some((bank) => merchant.bankId === bank.bankId && (merchant.pspVisibleAt || bank.tier === 1)))
      return null;
    return toMerchantType(merchant);
  }

  async findByPrimaryNmid(nmid: string): Promise<MerchantType | null> {
    const merchant = NMID_PATTERN.test(nmid) ? await this.repo.byPrimaryNmid(nmid) : null;
    return merchant && toMerchantType(merchant);
  }

  /** A bank's active merchants, keyset-paged by id (UUIDv7): stable while rows are inserted or updated. */
  async listForBank(bankId: string, filter: BankMerchantFilter): Promise<MerchantPageType> {
    if (!Number.isInteger(filter.first) || filter.first < 1 || filter.first > MAX_PAGE) {
      throw new BadInputError(`first must be between 1 and ${MAX_PAGE}`);
    }
    const rows = await this.repo.bankPage(
      bankId,
      {
        afterId: filter.after ? decodeIdCursor(filter.after) : null,
        updatedSince: filter.updatedSince ?? null,
        categoryCode: filter.categoryCode ?? null,
      },
      filter.first + 1,
    );
    const { page, hasMore, nextCursor } = keysetPage(rows, filter.first, (row) => encodeIdCursor(row.id));
    return { items: page.map(toMerchantType), hasMore, nextCursor };
  }

  /** Exact search among a bank's merchants (phone, npwp exact; email case-insensitive); all given criteria must match. */
  async searchForBank(
    bankId: string,
    criteria: { phone?: string | null; email?: string | null; npwp?: string | null },
  ): Promise<MerchantType[]> {
    if (!criteria.phone && !criteria.email && !criteria.npwp) throw new BadInputError('give at least one of phone, email, npwp');
    const rows = await this.repo.searchOfBank(bankId, criteria, MAX_PAGE);
    return rows.map(toMerchantType);
  }

  /**
   * Operators' merchant search: a query matches the merchant code (exact, any case), the phone (any Indonesian
   * form), the primary NMID (exact) or the name (contains, any case); no query lists all. Keyset-paged by id.
   */
  async search(filter: {
    query?: string | null;
    status?: string | null;
    first: number;
    after?: string | null;
    sandbox?: boolean;
  }): Promise<MerchantPageType> {
    if (!Number.isInteger(filter.first) || filter.first < 1 || filter.first > MAX_SEARCH_PAGE) {
      throw new BadInputError(`first must be between 1 and ${MAX_SEARCH_PAGE}`);
    }
    const rows = await this.repo.search(
      {
        query: filter.query?.trim() || null,
        status: filter.status ?? null,
        afterId: filter.after ? decodeIdCursor(filter.after) : null,
        sandbox: filter.sandbox ?? false,
      },
      filter.first + 1,
    );
    const { page, hasMore, nextCursor } = keysetPage(rows, filter.first, (row) => encodeIdCursor(row.id));
    return { items: page.map(toMerchantType), hasMore, nextCursor };
  }

  /**
   * An onboarded merchant (operator tooling, tests): active and KYC verified, of its bank's mode (a sandbox bank's
   * merchant is a sandbox merchant, docs/decisions/0015-demo-data-and-sandbox.md). With its first NMID (`primaryNmid`, the caller
   * creates the outlets with their NMIDs in the outlet subgraph) that is its first activation: it becomes visible to
   * its bank and merchant.activated goes to the bank's outbox in the same transaction.
   */
  async createOnboarded(input: OnboardedMerchantInput, now = new Date()): Promise<Merchant> {
    if (!input.name.trim()) throw new BadInputError('merchant name is required');
    if (input.primaryNmid != null && !NMID_PATTERN.test(input.primaryNmid))
      throw new BadInputError('nmid must be "ID" followed by 10 to 15 digits');
    const ownerPhone = input.ownerPhone == null ? null : toIndonesianE164(input.ownerPhone);
    if (input.ownerPhone != null && !ownerPhone) throw new BadInputError('owner phone must be an Indonesian mobile number');
    try {
      return await this.repo.transactional(async (tx) => {
        const bank = await tx.peer(BankRepository).byCode(input.bankCode);
        if (!bank) throw new BadInputError(`unknown bank ${input.bankCode}`);
        if (input.primaryNmid != null && isSandboxNmid(input.primaryNmid) !== bank.sandbox)
          throw new BadInputError(
            bank.sandbox
              ? `bank ${bank.code} is a sandbox bank: its NMIDs are ID99 followed by 13 digits`
              : 'NMIDs of the form ID99 followed by 13 digits are reserved for the sandbox',
          );
        const owner = ownerPhone ? await ownerOf(tx.peer(UserRepository), ownerPhone, bank.sandbox) : null;
        const merchant = tx.create({
          ...(input.id ? { id: input.id } : {}),
          merchantCode: newMerchantCode(),
          name: input.name.trim(),
          legalName: input.legalName ?? input.name.trim(),
          status: 'active',
          categoryCode: input.categoryCode ?? null,
          categoryName: input.categoryName ?? null,
          businessScaleCode: input.businessScaleCode ?? null,
          phone: input.phone ?? null,
          email: input.email ?? null,
          npwp: input.npwp ?? null,
          addressLine: input.address?.line ?? null,
          addressCity: input.address?.city ?? null,
          addressProvince: input.address?.province ?? null,
          addressPostalCode: input.address?.postalCode ?? null,
          kycStatus: 'verified',
          kycVerifiedAt: now,
          kycExpiresAt: addMonths(now, this.kycValidityMonths),
          bank,
          sandbox: bank.sandbox,
          referralCode: input.referralCode ?? null,
          primaryNmid: input.primaryNmid ?? null,
          nmidAssignedAt: input.primaryNmid ? now : null,
        });
        if (owner) tx.peer(UserRepository).createMembership({ merchant, user: owner, role: 'owner' });
        await commitLifecycleChange(tx, merchant, 'draft', null, now);
        return merchant;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException && input.primaryNmid) throw new NmidTakenError(input.primaryNmid);
      throw error;
    }
  }
}

/**
 * The user of this phone, created when unknown, to own a new merchant. A user of a live merchant cannot own a sandbox
 * one: the app acts for a user's live merchant first (MembershipService), so the sandbox merchant would be out of reach.
 */
async function ownerOf(users: UserRepository, phone: string, sandbox: boolean): Promise<User> {
  const user = await users.byPhone(phone);
  if (!user) return users.createUser({ phone });
  if (sandbox && (await users.liveMembershipsOf(user.id)).some((m) => !m.merchant.sandbox))
    throw new BadInputError(`${phone} is a member of a live merchant: give the sandbox merchant an owner phone of its own`);
  return user;
}

/** MRC- followed by 10 characters of an unambiguous alphabet (no 0/O, 1/I/L). */
export function newMerchantCode(): string {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  const bytes = randomBytes(10);
  return `MRC-${[...bytes].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

export function toMerchantType(m: MerchantFields): MerchantType {
  return {
    id: m.id,
    merchantCode: m.merchantCode,
    name: m.name,
    legalName: m.legalName ?? null,
    status: m.status,
    categoryCode: m.categoryCode ?? null,
    categoryName: m.categoryName ?? null,
    businessScaleCode: m.businessScaleCode ?? null,
    phone: m.phone ?? null,
    email: m.email ?? null,
    npwp: m.npwp ?? null,
    address: {
      line: m.addressLine ?? null,
      city: m.addressCity ?? null,
      province: m.addressProvince ?? null,
      postalCode: m.addressPostalCode ?? null,
      country: m.addressCountry,
    },
    kycStatus: m.kycStatus,
    kycVerifiedAt: m.kycVerifiedAt ?? null,
    kycExpiresAt: m.kycExpiresAt ?? null,
    bankCode: m.bank?.code ?? null,
    sandbox: m.sandbox,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}
