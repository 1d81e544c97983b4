import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { dummySecretHash, hashSecret, verifySecret } from '@lib/auth/secret-hash';
import { type SecretBox, newKeyId, newSecret } from '@lib/crypto/secret-box';
import { BadInputError, NotFoundError } from '@lib/errors/app-error';
import { MerchantRepository, merchantFieldsOf } from '../merchant/merchant.repository';
import { toMerchantType } from '../merchant/merchant.service';
import type { PartnerAccessType as AccessType, PartnerAuthMode, PartnerContract, PartnerCredential } from './partner.entity';
import { PartnerTakenError } from './partner.errors';
import { PartnerRepository } from './partner.repository';
import type { PartnerAccessType, PartnerConsentType, PartnerCredentialType, PartnerMerchantType, PartnerType } from './partner.type';
import { loaderGroupedByKey } from '@lib/federation/loaders';

/** Scopes the partner API knows (partner-api.md §5); anything else is refused at issuance (typos). */
export const PARTNER_SCOPES = ['merchant.read', 'transaction.read', 'scoring.read', 'risk-summary.read'] as const;
/** When a merchant is in scope for several reasons, the one reported (the strongest relation first). */
const ACCESS_PRIORITY: AccessType[] = ['referral', 'consent', 'assignment'];
const CODE = /^[A-Z0-9_-]{2,32}$/;
const REFERRAL_CODE = /^[A-Z0-9_-]{3,32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IssueCredentialInput {
  partnerCode: string;
  name: string;
  contract: PartnerContract;
  scopes: string[];
  mode: PartnerAuthMode;
  outletsEnabled?: boolean;
  /** Requests per minute (default 60). */
  rateLimitPerMinute?: number;
  /** Fixed key and secret (demo data only). */
  fixed?: { id: string; credentialKey: string; secret: string };
}

export class PartnerService {
  /** Live consents per merchant (merchant app, operators), batched over merchants. */
  private readonly consentsByMerchantId;
  /** Credentials per partner (operators), batched over partners. */
  private readonly credentialsByPartnerId;

  private readonly repo: PartnerRepository;

  constructor(
    em: EntityManager,
    private readonly box: SecretBox,
  ) {
    this.repo = new PartnerRepository(em);
    this.consentsByMerchantId = loaderGroupedByKey(
      (merchantIds: string[]) => this.repo.consentsOf(merchantIds),
      (row) => row.merchant_id,
    );
    this.credentialsByPartnerId = loaderGroupedByKey(
      (partnerIds: string[]) => this.repo.credentialsOf(partnerIds),
      (row) => row.partner.id,
    );
  }

  /** The merchant's live consents, oldest first. */
  async consentsOf(merchantId: string): Promise<PartnerConsentType[]> {
    if (!UUID.test(merchantId)) return [];
    return (await this.consentsByMerchantId.load(merchantId)).map((r) => ({
      partnerCode: r.partner_code,
      partnerName: r.partner_name,
      grantedAt: new Date(r.granted_at),
    }));
  }

  /** Every live partner, or every sandbox one (docs/decisions/0015-demo-data-and-sandbox.md), by code (operators). */
  async list(sandbox = false): Promise<PartnerType[]> {
    const partners = await this.repo.all(sandbox);
    return partners.map((p) => ({ id: p.id, code: p.code, name: p.name, status: p.status, sandbox: p.sandbox }));
  }

  /** A partner's credentials without any secret (operators). */
  async credentialsOf(partnerId: string): Promise<PartnerCredentialType[]> {
    return (await this.credentialsByPartnerId.load(partnerId)).map((c) => ({ ...toCredentialType(c, null), secret: null }));
  }

  /**
   * Onboards a partner; merchants (of its mode) already registered with its referral code become its referrals. A
   * sandbox partner (docs/decisions/0015-demo-data-and-sandbox.md) reaches sandbox merchants only, and its credentials with it.
   */
  async create(input: { code: string; name: string; referralCode: string; id?: string; sandbox?: boolean }) {
    const code = input.code.trim().toUpperCase();
    const referralCode = input.referralCode.trim().toUpperCase();
    if (!CODE.test(code)) throw new BadInputError('partner code must be 2–32 letters, digits, - or _');
    if (!REFERRAL_CODE.test(referralCode)) throw new BadInputError('referral code must be 3–32 letters, digits, - or _');
    if (!input.name.trim()) throw new BadInputError('partner name is required');
    const partner = this.repo.create({
      ...(input.id ? { id: input.id } : {}),
      code,
      name: input.name.trim(),
      referralCode,
      sandbox: input.sandbox ?? false,
    });
    try {
      await this.repo.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException)
        throw new PartnerTakenError(`partner code ${code} or referral code ${referralCode}`);
      throw error;
    }
    const referrals = await this.materializeReferrals(partner.id);
    return { partner_id: partner.id, partner_code: partner.code, referral_code: partner.referralCode, sandbox: partner.sandbox, referrals };
  }

  /**
   * Referral grants for every merchant registered with the partner's referral code (case-insensitive) that
   * has none live yet; idempotent. New merchants get theirs from a trigger on merchants.referral_code.
   */
  async materializeReferrals(partnerId: string): Promise<number> {
    return this.repo.materializeReferrals(partnerId);
  }

  /** A new credential; its secret is returned once, here, and stored hashed (jwt) or sealed (hmac). */
  async issueCredential(input: IssueCredentialInput) {
    if (input.contract !== 'A' && input.contract !== 'B') throw new BadInputError('contract must be A or B');
    if (input.mode !== 'jwt' && input.mode !== 'hmac') throw new BadInputError('mode must be jwt or hmac');
    const name = input.name.trim();
    if (!name || name.length > 100) throw new BadInputError('credential name is required (at most 100 characters)');
    const scopes = [...new Set(input.scopes.map((s) => s.trim()).filter(Boolean))];
    const unknown = scopes.filter((s) => !(PARTNER_SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new BadInputError(`unknown scopes: ${unknown.join(', ')} (known: ${PARTNER_SCOPES.join(', ')})`);
    const partner = await this.repo.byCode(input.partnerCode.trim().toUpperCase());
    if (!partner) throw new NotFoundError(`partner ${input.partnerCode}`);
    const secret = input.fixed?.secret ?? newSecret();
    const credential = this.repo.createCredential({
      ...(input.fixed ? { id: input.fixed.id } : {}),
      partner,
      name,
      credentialKey: input.fixed?.credentialKey ?? newKeyId('pk'),
      authMode: input.mode,
      contract: input.contract,
      scopes,
      secretHash: input.mode === 'jwt' ? await hashSecret(secret) : null,
      secretSealed: input.mode === 'hmac' ? this.box.seal(secret) : null,
      outletsEnabled: input.outletsEnabled ?? false,
      rateLimitPerMinute: input.rateLimitPerMinute ?? 60,
    });
    await this.repo.flush();
    return {
      credential_key: credential.credentialKey,
      credential_secret: secret,
      contract: credential.contract,
      mode: credential.authMode,
      sandbox: partner.sandbox,
    };
  }

  async revokeCredential(credentialKey: string, now = new Date()) {
    const credential = await this.repo.byCredentialKey(credentialKey);
    if (!credential) throw new NotFoundError(`credential ${credentialKey}`);
    if (credential.status !== 'revoked') {
      credential.status = 'revoked';
      credential.revokedAt = now;
      await this.repo.flush();
    }
    return { credential_key: credential.credentialKey, status: credential.status, revoked_at: credential.revokedAt!.toISOString() };
  }

  /** A consent or assignment grant; granting one that is live already answers the existing grant. */
  async grant(input: { partnerCode: string; merchantId: string; type: AccessType }, now = new Date()) {
    if (input.type !== 'consent' && input.type !== 'assignment') throw new BadInputError('type must be consent or assignment');
    const { partner, merchantId } = await this.partnerAndMerchant(input.partnerCode, input.merchantId);
    await this.repo.insertGrant(partner.id, merchantId, input.type, now, partner.sandbox);
    const live = await this.repo.liveGrant(partner.id, merchantId, input.type);
    return { partner_code: partner.code, merchant_id: merchantId, access_type: live.accessType, granted_at: live.grantedAt.toISOString() };
  }

  /** Ends a live grant (a withdrawn consent, an ended assignment, or a referral an operator removes). */
  async ungrant(input: { partnerCode: string; merchantId: string; type: AccessType }, now = new Date()) {
    if (!['referral', 'consent', 'assignment'].includes(input.type))
      throw new BadInputError('type must be referral, consent or assignment');
    const { partner, merchantId } = await this.partnerAndMerchant(input.partnerCode, input.merchantId);
    const revoked = await this.repo.revokeGrants(partner.id, merchantId, input.type, now);
    return { partner_code: partner.code, merchant_id: merchantId, access_type: input.type, revoked };
  }

  /**
   * Verifies a JWT-mode credential. Every call costs one scrypt verification, whether the key is unknown, the
   * credential revoked or HMAC-mode, or the secret wrong: the answer's timing does not tell them apart.
   */
  async verifyCredential(credentialKey: string, credentialSecret: string): Promise<PartnerCredentialType | null> {
    const credential = credentialKey.length <= 64 ? await this.repo.credentialWithPartner(credentialKey) : null;
    const usable = credential?.authMode === 'jwt' && credential.secretHash ? credential.secretHash : null;
    const matches = await verifySecret(credentialSecret, usable ?? (await dummySecretHash()));
    if (!credential || !usable || !matches || credential.status !== 'active' || credential.partner.status !== 'active') return null;
    return toCredentialType(credential, null);
  }

  /** A credential with its HMAC secret opened (hmac mode), for the adapters' verification and status checks. */
  async credential(credentialKey: string): Promise<PartnerCredentialType | null> {
    if (credentialKey.length > 64) return null;
    const credential = await this.repo.credentialWithPartner(credentialKey);
    if (!credential) return null;
    return toCredentialType(credential, credential.secretSealed ? this.box.open(credential.secretSealed) : null);
  }

  /** Why the merchant is in the (active) partner's scope, or null: the data-scope wall of the partner API. */
  async accessOf(partnerId: string, merchantId: string): Promise<PartnerAccessType | null> {
    if (!UUID.test(merchantId)) return null;
    const rows = await this.repo.liveAccessOf(partnerId, merchantId);
    if (rows.length === 0) return null;
    rows.sort((a, b) => ACCESS_PRIORITY.indexOf(a.access_type) - ACCESS_PRIORITY.indexOf(b.access_type));
    return { merchantId, accessType: rows[0].access_type, grantedAt: new Date(rows[0].granted_at) };
  }

  /**
   * Every merchant in the partner's scope (live grant, active partner), deleted merchants left out, one entry per
   * merchant with its strongest access, then the open registrations carrying the partner's referral code (status
   * `pending_review`, access `referral` since they were submitted; approval keeps their id, so the entry becomes the
   * merchant's); ordered by grant time then id. `merchantIds` narrows the list.
   */
  async merchantsOf(partnerId: string, merchantIds: string[] | null): Promise<PartnerMerchantType[]> {
    const ids = merchantIds && [...new Set(merchantIds.filter((id) => UUID.test(id)))];
    if (ids && ids.length === 0) return [];
    const granted = await this.grantedMerchantsOf(partnerId, ids);
    // Approval turns a registration into the merchant with its id in one transaction: ids all found are no registrations.
    const registrations = ids && granted.length === ids.length ? [] : await this.referredRegistrationsOf(partnerId, ids);
    return [...granted, ...registrations].sort(
      (a, b) => a.grantedAt.getTime() - b.grantedAt.getTime() || a.merchantId.localeCompare(b.merchantId),
    );
  }

  /** Registrations under review (not yet merchants) submitted with the active partner's referral code. */
  private async referredRegistrationsOf(partnerId: string, merchantIds: string[] | null): Promise<PartnerMerchantType[]> {
    const rows = await this.repo.referredRegistrationsOf(partnerId, merchantIds);
    return rows.map((r) => ({
      merchantId: r.id,
      accessType: 'referral',
      grantedAt: new Date(r.created_at),
      referralCode: r.referral_code,
      referralPartnerId: partnerId,
      merchant: {
        id: r.id,
        merchantCode: r.merchant_code,
        name: r.merchant_name,
        legalName: null,
        status: 'pending_review',
        categoryCode: null,
        categoryName: null,
        businessScaleCode: null,
        phone: r.contact_phone,
        email: r.contact_email,
        npwp: null,
        address: { line: null, city: null, province: null, postalCode: null, country: 'ID' },
        kycStatus: 'pending',
        kycVerifiedAt: null,
        kycExpiresAt: null,
        bankCode: null,
        sandbox: false,
        createdAt: new Date(r.created_at),
        updatedAt: new Date(r.updated_at),
      },
    }));
  }

  /** Merchants the partner holds a live grant to, with the strongest; a partner is not shown the acquiring bank (0033). */
  private async grantedMerchantsOf(partnerId: string, merchantIds: string[] | null): Promise<PartnerMerchantType[]> {
    const rows = await this.repo.grantedMerchantsOf(partnerId, merchantIds, ACCESS_PRIORITY);
    return rows.map((row) => ({
      merchantId: row.id,
      accessType: row.accessType,
      grantedAt: new Date(row.grantedAt),
      referralCode: row.referralCode,
      referralPartnerId: row.referralPartnerId,
      merchant: toMerchantType({ ...merchantFieldsOf(row), bank: null }),
    }));
  }

  /**
   * The partner and the merchant of a grant. They must be of one mode (docs/decisions/0015-demo-data-and-sandbox.md): to a merchant,
   * a partner of the other mode does not exist (an owner's consent to a sandbox partner's code is to an unknown one).
   */
  private async partnerAndMerchant(partnerCode: string, merchantId: string) {
    const partner = await this.repo.byCode(partnerCode.trim().toUpperCase());
    if (!partner) throw new NotFoundError(`partner ${partnerCode}`);
    const merchant = UUID.test(merchantId) ? await this.repo.peer(MerchantRepository).byId(merchantId) : null;
    if (!merchant) throw new NotFoundError(`merchant ${merchantId}`);
    if (merchant.sandbox !== partner.sandbox) throw new NotFoundError(`${merchant.sandbox ? 'sandbox' : 'live'} partner ${partner.code}`);
    return { partner, merchantId };
  }
}

function toCredentialType(credential: PartnerCredential, secret: string | null): PartnerCredentialType {
  const { partner } = credential;
  return {
    id: credential.id,
    credentialKey: credential.credentialKey,
    name: credential.name,
    authMode: credential.authMode,
    contract: credential.contract,
    scopes: credential.scopes,
    outletsEnabled: credential.outletsEnabled,
    rateLimitPerMinute: credential.rateLimitPerMinute,
    status: credential.status,
    secret,
    partner: { id: partner.id, code: partner.code, name: partner.name, status: partner.status, sandbox: partner.sandbox },
  };
}
