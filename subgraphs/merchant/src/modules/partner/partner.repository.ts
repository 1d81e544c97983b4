import type { RequiredEntityData } from '@mikro-orm/core';
import { Repository } from '@lib/db/repository';
import { merchantColumnsOf } from '../merchant/merchant.repository';
import { Partner, PartnerCredential, PartnerMerchantAccess, type PartnerAccessType as AccessType } from './partner.entity';

/** A live consent of a merchant to a partner (plain row). */
export interface ConsentRow {
  merchant_id: string;
  partner_code: string;
  partner_name: string;
  granted_at: Date | string;
}

/** A registration under review submitted with a partner's referral code (plain row). */
export interface ReferredRegistrationRow {
  id: string;
  merchant_code: string;
  merchant_name: string;
  referral_code: string;
  contact_phone: string;
  contact_email: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * A merchant in a partner's scope (plain row): the merchant's fields toMerchantType reads (dates as text), its
 * strongest live grant, its referral code and the partner that code names, if any.
 */
export type GrantedMerchantRow = Record<string, unknown> & {
  id: string;
  accessType: AccessType;
  grantedAt: string | Date;
  referralCode: string | null;
  referralPartnerId: string | null;
};

/**
 * Partners, their credentials and their access to merchants (`merchant.partners`, `merchant.partner_credentials`,
 * `merchant.partner_merchant_access`): entities for partners and credentials, plain rows for the access grants
 * (the partner API's data-scope wall reads them on every call).
 */
export class PartnerRepository extends Repository {
  /** The live consents of these merchants, by grant time then partner code. */
  consentsOf(merchantIds: string[]): Promise<ConsentRow[]> {
    return this.em
      .getKnex()('merchant.partner_merchant_access as a')
      .join('merchant.partners as p', 'p.id', 'a.partner_id')
      .whereIn('a.merchant_id', merchantIds)
      .where('a.access_type', 'consent')
      .whereNull('a.revoked_at')
      .orderBy([{ column: 'a.granted_at' }, { column: 'p.code' }])
      .select<ConsentRow[]>('a.merchant_id', 'p.code as partner_code', 'p.name as partner_name', 'a.granted_at');
  }

  /** The credentials of these partners, oldest first, partner loaded. */
  credentialsOf(partnerIds: string[]): Promise<PartnerCredential[]> {
    return this.em.find(
      PartnerCredential,
      { partner: { $in: partnerIds } },
      { populate: ['partner'], orderBy: { createdAt: 'asc', id: 'asc' } },
    );
  }

  /** The live partners, or the sandbox ones, by code. */
  all(sandbox: boolean): Promise<Partner[]> {
    return this.em.find(Partner, { sandbox }, { orderBy: { code: 'asc' } });
  }

  byCode(code: string): Promise<Partner | null> {
    return this.em.findOne(Partner, { code });
  }

  /** The active live partner with this referral code (registrations become live merchants: a sandbox code is unknown to them). */
  activeByReferralCode(referralCode: string): Promise<Partner | null> {
    return this.em.findOne(Partner, { referralCode, status: 'active', sandbox: false });
  }

  /** A new partner, written by the next flush. */
  create(data: RequiredEntityData<Partner>): Partner {
    return this.em.create(Partner, data);
  }

  /** A new credential, written by the next flush. */
  createCredential(data: RequiredEntityData<PartnerCredential>): PartnerCredential {
    return this.em.create(PartnerCredential, data);
  }

  byCredentialKey(credentialKey: string): Promise<PartnerCredential | null> {
    return this.em.findOne(PartnerCredential, { credentialKey });
  }

  /** The credential with this key, partner loaded. */
  credentialWithPartner(credentialKey: string): Promise<PartnerCredential | null> {
    return this.em.findOne(PartnerCredential, { credentialKey }, { populate: ['partner'] });
  }

  /**
   * Referral grants for every merchant of the partner's mode registered with its referral code (case-insensitive)
   * that has none live yet; how many were inserted.
   */
  async materializeReferrals(partnerId: string): Promise<number> {
    const result = await this.em.getKnex().raw(
      `insert into merchant.partner_merchant_access (id, partner_id, merchant_id, access_type, granted_at, sandbox)
       select gen_random_uuid(), p.id, m.id, 'referral', now(), p.sandbox
         from merchant.partners p
         join merchant.merchants m on upper(m.referral_code) = p.referral_code and m.sandbox = p.sandbox
        where p.id = ?
       on conflict (partner_id, merchant_id, access_type) where revoked_at is null do nothing`,
      [partnerId],
    );
    return (result as { rowCount: number }).rowCount;
  }

  /** A live grant of this type, unless one exists already; `sandbox` is the mode of both (their foreign keys check it). */
  async insertGrant(partnerId: string, merchantId: string, type: AccessType, now: Date, sandbox: boolean): Promise<void> {
    await this.em.getKnex().raw(
      `insert into merchant.partner_merchant_access (id, partner_id, merchant_id, access_type, granted_at, sandbox)
       values (gen_random_uuid(), ?, ?, ?, ?, ?)
       on conflict (partner_id, merchant_id, access_type) where revoked_at is null do nothing`,
      [partnerId, merchantId, type, now, sandbox],
    );
  }

  /** The live grant of this type (it must exist). */
  liveGrant(partnerId: string, merchantId: string, type: AccessType): Promise<PartnerMerchantAccess> {
    return this.em.findOneOrFail(PartnerMerchantAccess, { partnerId, merchantId, accessType: type, revokedAt: null });
  }

  /** Ends the live grants of this type; how many. */
  revokeGrants(partnerId: string, merchantId: string, type: AccessType, now: Date): Promise<number> {
    return this.em
      .getKnex()('merchant.partner_merchant_access')
      .where({ partner_id: partnerId, merchant_id: merchantId, access_type: type })
      .whereNull('revoked_at')
      .update({ revoked_at: now });
  }

  /** The live grants of the merchant to the partner, while the partner is active. */
  liveAccessOf(partnerId: string, merchantId: string): Promise<{ access_type: AccessType; granted_at: Date | string }[]> {
    return this.em
      .getKnex()('merchant.partner_merchant_access as a')
      .join('merchant.partners as p', 'p.id', 'a.partner_id')
      .where({ 'a.partner_id': partnerId, 'a.merchant_id': merchantId, 'p.status': 'active' })
      .whereNull('a.revoked_at')
      .select<{ access_type: AccessType; granted_at: Date | string }[]>('a.access_type', 'a.granted_at');
  }

  /**
   * Registrations under review (not yet merchants) submitted with the active partner's referral code. They become
   * live merchants, so a sandbox partner has none.
   */
  referredRegistrationsOf(partnerId: string, merchantIds: string[] | null): Promise<ReferredRegistrationRow[]> {
    const knex = this.em.getKnex();
    const query = knex('merchant.merchant_registrations as r')
      .join('merchant.partners as p', knex.raw('p.referral_code = upper(r.referral_code)'))
      .where({ 'p.id': partnerId, 'p.status': 'active', 'p.sandbox': false })
      .whereIn('r.status', ['pending', 'pending_review'])
      .select<ReferredRegistrationRow[]>(
        'r.id',
        'r.merchant_code',
        'r.merchant_name',
        'r.referral_code',
        'r.contact_phone',
        'r.contact_email',
        'r.created_at',
        'r.updated_at',
      );
    if (merchantIds) query.whereIn('r.id', merchantIds);
    return query;
  }

  /**
   * The merchants (not deleted) the active partner holds a live grant to, `merchantIds` narrowing them, in one
   * statement: each merchant once, with its grant that comes first in `priority` (the strongest relation), the fields
   * toMerchantType reads, its referral code and the partner that code names (docs/decisions/0033-partner-credentials-and-authentication.md).
   */
  grantedMerchantsOf(partnerId: string, merchantIds: string[] | null, priority: readonly AccessType[]): Promise<GrantedMerchantRow[]> {
    const narrowed = merchantIds !== null;
    return this.preparedRows<GrantedMerchantRow>(
      narrowed ? 'partner_granted_merchants_of_ids' : 'partner_granted_merchants',
      `select distinct on (m.id) ${merchantColumnsOf('m')}, m.referral_code as "referralCode", a.access_type as "accessType",
              a.granted_at as "grantedAt", r.id as "referralPartnerId"
         from merchant.partner_merchant_access a
         join merchant.partners p on p.id = a.partner_id
         join merchant.merchants m on m.id = a.merchant_id
         left join merchant.partners r on r.referral_code = upper(m.referral_code)
        where a.partner_id = ? and p.status = 'active' and a.revoked_at is null and m.status <> 'deleted'
              ${narrowed ? 'and a.merchant_id = any(?::uuid[])' : ''}
        order by m.id, array_position(?::text[], a.access_type)`,
      narrowed ? [partnerId, merchantIds, priority] : [partnerId, priority],
    );
  }
}
