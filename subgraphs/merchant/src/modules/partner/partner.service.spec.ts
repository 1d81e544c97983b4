import { loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { merchantSubgraph } from '@subgraphs/merchant/src/app';
import { secretBoxFor } from '@lib/crypto/secret-box';
import { MerchantRepository } from '../merchant/merchant.repository';
import { toMerchantType } from '../merchant/merchant.service';
import { PartnerService } from './partner.service';

describe('PartnerService (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  const service = () => new PartnerService(orm.em.fork(), secretBoxFor(loadConfig({ DATABASE_URL: database.adminUrl })));
  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: { message: string; extensions?: Record<string, unknown> }) => ({ message: error.message, ...error.extensions }),
    );

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(merchantSubgraph, loadConfig({ DATABASE_URL: database.adminUrl }), database.adminUrl);
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });

  it('verifies a JWT-mode credential and answers null for unknown, wrong, HMAC-mode and revoked ones', async () => {
    const a = DEMO.partner.credentials.contractA;
    expect(await service().verifyCredential(a.credentialKey, a.secret)).toEqual({
      id: a.id,
      credentialKey: a.credentialKey,
      name: a.name,
      authMode: 'jwt',
      contract: 'A',
      scopes: [...a.scopes],
      outletsEnabled: true,
      rateLimitPerMinute: 60,
      status: 'active',
      secret: null,
      partner: { id: DEMO.partner.id, code: 'PDEMO', name: 'Partner Demo', status: 'active', sandbox: false },
    });
    expect(await service().verifyCredential('pk_unknown', a.secret)).toBeNull();
    expect(await service().verifyCredential(a.credentialKey, `${a.secret}x`)).toBeNull();
    const hmac = await service().issueCredential({
      partnerCode: 'PDEMO',
      name: 'h',
      contract: 'B',
      scopes: ['merchant.read'],
      mode: 'hmac',
    });
    expect(await service().verifyCredential(hmac.credential_key, hmac.credential_secret)).toBeNull();
    expect(await service().credential(hmac.credential_key)).toMatchObject({
      authMode: 'hmac',
      secret: hmac.credential_secret,
      status: 'active',
    });
    const jwt = await service().issueCredential({ partnerCode: 'pdemo', name: 'j', contract: 'A', scopes: ['merchant.read'], mode: 'jwt' });
    expect(await service().verifyCredential(jwt.credential_key, jwt.credential_secret)).not.toBeNull();
    expect(await service().revokeCredential(jwt.credential_key)).toMatchObject({ status: 'revoked' });
    expect(await service().verifyCredential(jwt.credential_key, jwt.credential_secret)).toBeNull();
    expect(await service().credential(jwt.credential_key)).toMatchObject({ status: 'revoked', secret: null });
  });

  it('spends the same scrypt work on an unknown key as on a wrong secret (no timing oracle)', async () => {
    const a = DEMO.partner.credentials.contractA;
    await service().verifyCredential('pk_warm', 'x');
    // The two interleaved, each's fastest of 7: its own cost, whatever else the machine did meanwhile.
    const fastest = { unknown: Infinity, wrong: Infinity };
    const timed = async (work: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await work();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    for (let i = 0; i < 7; i++) {
      fastest.unknown = Math.min(fastest.unknown, await timed(() => service().verifyCredential('pk_unknown', a.secret)));
      fastest.wrong = Math.min(fastest.wrong, await timed(() => service().verifyCredential(a.credentialKey, 'wrong-secret')));
    }
    const { unknown, wrong } = fastest;
    // scrypt (N=16384) dominates both; a skipped hash would make the unknown key ~10x faster. Only that
    // direction is asserted, with a wide margin: the machine is shared, and timings there are noisy.
    expect(unknown).toBeGreaterThan(wrong * 0.25);
  });

  it('refuses bad input at issuance', async () => {
    expect(
      await errorOf(service().issueCredential({ partnerCode: 'PDEMO', name: 'x', contract: 'A', scopes: ['merchant.write'], mode: 'jwt' })),
    ).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: expect.stringMatching(/unknown scopes: merchant.write/),
    });
    expect(
      await errorOf(service().issueCredential({ partnerCode: 'NOPE', name: 'x', contract: 'A', scopes: [], mode: 'jwt' })),
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(await errorOf(service().create({ code: 'pdemo', name: 'Again', referralCode: 'OTHER' }))).toMatchObject({ code: 'CONFLICT' });
    expect(await errorOf(service().create({ code: 'NEWP', name: 'New', referralCode: 'demoref' }))).toMatchObject({ code: 'CONFLICT' });
    expect(await errorOf(service().create({ code: 'N', name: 'New', referralCode: 'NEWREF' }))).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('lists its merchants in one read: the strongest grant, the referrer, the merchant as banks see it but without the bank', async () => {
    await service().grant({ partnerCode: 'PDEMO', merchantId: DEMO.merchantId, type: 'consent' });
    const [row] = await new MerchantRepository(orm.em.fork()).rowsByIds([DEMO.merchantId]);
    expect(row.bank?.code).toBe(DEMO.bank.code);
    const demo = {
      merchantId: DEMO.merchantId,
      accessType: 'referral',
      referralCode: 'DEMOREF',
      referralPartnerId: DEMO.partner.id,
      merchant: { ...toMerchantType(row), bankCode: null },
    };
    const all = await service().merchantsOf(DEMO.partner.id, null);
    expect(all.filter((m) => m.merchantId === DEMO.merchantId)).toEqual([expect.objectContaining(demo)]);
    expect(all.map((m) => m.grantedAt.getTime())).toEqual(all.map((m) => m.grantedAt.getTime()).sort((a, b) => a - b));
    // Narrowed: repeated and malformed ids count once and not at all; an id outside the scope is left out.
    const narrowed = await service().merchantsOf(DEMO.partner.id, [DEMO.merchantId, DEMO.merchantId, 'not-a-uuid', DEMO.partner.id]);
    expect(narrowed).toEqual([expect.objectContaining(demo)]);
    expect(await service().merchantsOf(DEMO.partner.id, ['not-a-uuid'])).toEqual([]);
    await service().ungrant({ partnerCode: 'PDEMO', merchantId: DEMO.merchantId, type: 'consent' });

    // A registration under review with the partner's code (any case): listed, and found by its id beside a merchant's.
    const registrationId = '019a0000-0000-7000-8000-0000000c0201';
    const knex = orm.em.getKnex();
    await knex.raw(
      `insert into merchant.merchant_registrations (id, user_id, status, merchant_code, merchant_name, business_entity_type,
         business_type_id, business_type_code, business_type_name, mcc, average_monthly_revenue, employee_count, business_scale_code,
         business_scale_name, contact_phone, referral_code, created_at, updated_at)
       select ?, ?, 'pending_review', 'MRC-PREF0001', 'Toko Rujukan', 'Perseorangan', t.id, t.code, t.name, '5411', 5000000, 2, s.code,
              s.name, '+6281299990002', 'demoref', now(), now()
         from (select * from merchant.business_types order by id limit 1) t, (select * from merchant.business_scales order by sort_order limit 1) s`,
      [registrationId, DEMO.owner.userId],
    );
    const registration = {
      merchantId: registrationId,
      accessType: 'referral',
      merchant: expect.objectContaining({ status: 'pending_review' }),
    };
    expect((await service().merchantsOf(DEMO.partner.id, null)).filter((m) => m.merchantId === registrationId)).toEqual([
      expect.objectContaining(registration),
    ]);
    const both = await service().merchantsOf(DEMO.partner.id, [registrationId, DEMO.merchantId]);
    expect(both.map((m) => m.merchantId).sort()).toEqual([DEMO.merchantId, registrationId].sort());
    expect(both.find((m) => m.merchantId === registrationId)).toEqual(expect.objectContaining(registration));
    await knex.raw('delete from merchant.merchant_registrations where id = ?', [registrationId]);
  });

  it('reports one access per merchant, the strongest first, and only while the partner is active', async () => {
    const s = service();
    expect(await s.accessOf(DEMO.partner.id, DEMO.merchantId)).toMatchObject({ accessType: 'referral' });
    await service().grant({ partnerCode: 'PDEMO', merchantId: DEMO.merchantId, type: 'assignment' });
    expect(await service().accessOf(DEMO.partner.id, DEMO.merchantId)).toMatchObject({ accessType: 'referral' });
    await service().ungrant({ partnerCode: 'PDEMO', merchantId: DEMO.merchantId, type: 'referral' });
    expect(await service().accessOf(DEMO.partner.id, DEMO.merchantId)).toMatchObject({ accessType: 'assignment' });
    await orm.em.getKnex().raw(`update merchant.partners set status = 'suspended' where id = ?`, [DEMO.partner.id]);
    expect(await service().accessOf(DEMO.partner.id, DEMO.merchantId)).toBeNull();
    expect(
      await service().verifyCredential(DEMO.partner.credentials.contractA.credentialKey, DEMO.partner.credentials.contractA.secret),
    ).toBeNull();
    await orm.em.getKnex().raw(`update merchant.partners set status = 'active' where id = ?`, [DEMO.partner.id]);
    expect(await service().accessOf(DEMO.partner.id, 'not-a-uuid')).toBeNull();
  });
});
