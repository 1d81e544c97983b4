import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { secretBoxFor } from '@lib/crypto/secret-box';
import { addMonths } from '../modules/merchant/merchant-lifecycle.service';
import { PartnerService } from '../modules/partner/partner.service';
import { bankKeyRows, partnerCredentialRows } from './seed-rows';

/**
 * The demo bank (tier 1, fixed keys), the demo partner (fixed JWT credentials for contracts A and B) and the
 * demo merchant, active and visible to the bank with its first NMID, referred by the partner.
 */
export async function seedMerchantDemo(em: EntityManager, config: Config): Promise<Record<string, number>> {
  const knex = em.getKnex();
  const box = secretBoxFor(config);
  const now = new Date();
  const banks = await knex('merchant.banks')
    .insert({ id: DEMO.bank.id, code: DEMO.bank.code, name: DEMO.bank.name, tier: 'tier1', created_at: now })
    .onConflict('id')
    .ignore()
    .returning('id');
  const credentials = await knex('merchant.bank_credentials')
    .insert(
      bankKeyRows(box, DEMO.bank.id, ['019a0000-0000-7000-8000-00000000b101', '019a0000-0000-7000-8000-00000000b102'], DEMO.bank, now),
    )
    .onConflict('id')
    .ignore()
    .returning('id');
  const partner = DEMO.partner;
  const partners = await knex('merchant.partners')
    .insert({
      id: partner.id,
      code: partner.code,
      name: partner.name,
      referral_code: partner.referralCode,
      status: 'active',
      created_at: now,
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  const partnerCredentials = await knex('merchant.partner_credentials')
    .insert(await partnerCredentialRows(partner.id, Object.values(partner.credentials), now))
    .onConflict('id')
    .ignore()
    .returning('id');
  const merchants = await knex('merchant.merchants')
    .insert({
      referral_code: partner.referralCode,
      id: DEMO.merchantId,
      merchant_code: DEMO.merchantCode,
      name: 'Warung Kopi Demo',
      legal_name: 'CV Kopi Demo Nusantara',
      status: 'active',
      category_code: '5814',
      category_name: 'Kedai Kopi',
      // A micro business (QRIS criteria UMI): its payments up to Rp500.000 pay 0 % MDR (docs/decisions/0240-mdr-policy.md).
      business_scale_code: 'micro',
      phone: '+6281234567890',
      email: 'halo@kopidemo.example',
      npwp: '012345678901000',
      address_line: 'Jl. Medan Merdeka Barat No. 1',
      address_city: 'Jakarta Pusat',
      address_province: 'DKI Jakarta',
      address_postal_code: '10110',
      kyc_status: 'verified',
      kyc_verified_at: now,
      kyc_expires_at: addMonths(now, config.suspension.kycValidityMonths),
      bank_id: DEMO.bank.id,
      psp_visible_at: now,
      primary_nmid: DEMO.outlets[0].nmid,
      nmid_assigned_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  // A demo merchant seeded before the lifecycle columns gets its NMID; nothing else of it is overwritten.
  const completed = await knex('merchant.merchants')
    .where({ id: DEMO.merchantId })
    .whereNull('primary_nmid')
    .update({ primary_nmid: DEMO.outlets[0].nmid, nmid_assigned_at: knex.raw('coalesce(nmid_assigned_at, psp_visible_at, ?)', [now]) });
  // A demo merchant seeded before it had a business scale is the micro business it is.
  await knex('merchant.merchants').where({ id: DEMO.merchantId }).whereNull('business_scale_code').update({ business_scale_code: 'micro' });
  const others = await knex('merchant.merchants')
    .insert(
      DEMO.otherMerchants.map((m) => ({
        id: m.id,
        merchant_code: m.code,
        name: m.name,
        legal_name: m.name,
        status: 'active',
        category_code: m.categoryCode,
        category_name: m.categoryName,
        phone: m.phone,
        referral_code: 'referralCode' in m ? m.referralCode : null,
        address_city: 'Jakarta Pusat',
        address_province: 'DKI Jakarta',
        kyc_status: 'verified',
        kyc_verified_at: now,
        kyc_expires_at: addMonths(now, config.suspension.kycValidityMonths),
        bank_id: DEMO.bank.id,
        primary_nmid: m.outlets[0].nmid,
        nmid_assigned_at: now,
        psp_visible_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict('id')
    .ignore()
    .returning('id');
  // A demo merchant seeded before the partner existed: referred now; its referral grant follows (idempotent).
  await knex('merchant.merchants')
    .where({ id: DEMO.merchantId })
    .whereNull('referral_code')
    .update({ referral_code: partner.referralCode });
  const referrals = await new PartnerService(em, box).materializeReferrals(partner.id);
  const owners = await knex('merchant.users')
    .insert({
      id: DEMO.owner.userId,
      phone: DEMO.owner.phone,
      full_name: DEMO.owner.fullName,
      display_name: DEMO.owner.fullName,
      phone_verified_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  const memberships = await knex('merchant.merchant_users')
    .insert({ id: DEMO.owner.membershipId, merchant_id: DEMO.merchantId, user_id: DEMO.owner.userId, role: 'owner', created_at: now })
    .onConflict('id')
    .ignore()
    .returning('id');
  return {
    users: owners.length,
    merchant_users: memberships.length,
    banks: banks.length,
    bank_credentials: credentials.length,
    partners: partners.length,
    partner_credentials: partnerCredentials.length,
    partner_referrals: referrals,
    merchants: Math.max(merchants.length, completed) + others.length,
  };
}
