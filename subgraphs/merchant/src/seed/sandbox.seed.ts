import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { secretBoxFor } from '@lib/crypto/secret-box';
import { addMonths } from '../modules/merchant/merchant-lifecycle.service';
import { bankKeyRows, partnerCredentialRows } from './seed-rows';

/**
 * The demo sandbox (docs/decisions/0015-demo-data-and-sandbox.md, DEMO.sandbox): a sandbox bank with fixed keys, its sandbox
 * merchant (active, visible to the bank with its first sandbox NMID, referred by the sandbox partner), the merchant's
 * owner, and the sandbox partner with one contract A credential. Idempotent.
 */
export async function seedMerchantSandbox(em: EntityManager, config: Config): Promise<Record<string, number>> {
  const knex = em.getKnex();
  const box = secretBoxFor(config);
  const now = new Date();
  const { bank, partner, owner } = DEMO.sandbox;
  const banks = await knex('merchant.banks')
    .insert({ id: bank.id, code: bank.code, name: bank.name, tier: 'external', sandbox: true, created_at: now })
    .onConflict('id')
    .ignore()
    .returning('id');
  const credentials = await knex('merchant.bank_credentials')
    .insert(bankKeyRows(box, bank.id, ['019a0000-0000-7000-8000-00000000b911', '019a0000-0000-7000-8000-00000000b912'], bank, now))
    .onConflict('id')
    .ignore()
    .returning('id');
  // The partner first: the merchant's referral code then grants it access (the referral trigger, within one mode).
  const partners = await knex('merchant.partners')
    .insert({
      id: partner.id,
      code: partner.code,
      name: partner.name,
      referral_code: partner.referralCode,
      status: 'active',
      sandbox: true,
      created_at: now,
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  const partnerCredentials = await knex('merchant.partner_credentials')
    .insert(await partnerCredentialRows(partner.id, [partner.credential], now))
    .onConflict('id')
    .ignore()
    .returning('id');
  const merchants = await knex('merchant.merchants')
    .insert({
      id: DEMO.sandbox.merchantId,
      merchant_code: DEMO.sandbox.merchantCode,
      name: DEMO.sandbox.merchantName,
      legal_name: DEMO.sandbox.merchantName,
      status: 'active',
      category_code: '5411',
      category_name: 'Toko Kelontong',
      phone: '+6281234567899',
      address_city: 'Jakarta Pusat',
      address_province: 'DKI Jakarta',
      kyc_status: 'verified',
      kyc_verified_at: now,
      kyc_expires_at: addMonths(now, config.suspension.kycValidityMonths),
      bank_id: bank.id,
      sandbox: true,
      referral_code: partner.referralCode,
      primary_nmid: DEMO.sandbox.outlets[0].nmid,
      nmid_assigned_at: now,
      psp_visible_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  const users = await knex('merchant.users')
    .insert({
      id: owner.userId,
      phone: owner.phone,
      full_name: owner.fullName,
      display_name: owner.fullName,
      phone_verified_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  const memberships = await knex('merchant.merchant_users')
    .insert({ id: owner.membershipId, merchant_id: DEMO.sandbox.merchantId, user_id: owner.userId, role: 'owner', created_at: now })
    .onConflict('id')
    .ignore()
    .returning('id');
  return {
    sandbox_banks: banks.length,
    sandbox_bank_credentials: credentials.length,
    sandbox_partners: partners.length,
    sandbox_partner_credentials: partnerCredentials.length,
    sandbox_merchants: merchants.length,
    sandbox_users: users.length,
    sandbox_merchant_users: memberships.length,
  };
}
