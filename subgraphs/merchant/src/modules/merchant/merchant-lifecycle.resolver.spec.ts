import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { PRINCIPAL_HEADER, type Principal, signPrincipal } from '@lib/auth/principal';
import { type Config, loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createSubgraphApp, openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { merchantSubgraph } from '@subgraphs/merchant/src/app';
import { secretBoxFor } from '@lib/crypto/secret-box';
import { Bank } from '../bank/bank.entity';
import { BankService } from '../bank/bank.service';
import { OutboundUrlPolicy } from '../webhook/outbound-url';
import { WebhookService } from '../webhook/webhook.service';
import { Merchant } from './merchant.entity';
import { newMerchantCode } from './merchant.service';

interface GraphQLResponse {
  data?: any;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const OPERATOR: Principal = { kind: 'operator', operatorId: 'op-1', roles: ['admin'] };
const INTERNAL: Principal = { kind: 'internal', service: 'core' };
const DEMO_BANK: Principal = { kind: 'bank', bankId: DEMO.bank.id, bankCode: DEMO.bank.code, tier: 1 };

const CHANGE_STATUS = `mutation ($input: ChangeMerchantStatusInput!) { changeMerchantStatus(input: $input) { id status kycStatus } }`;
const VERIFY_KYC = `mutation ($id: ID!) { verifyMerchantKyc(merchantId: $id) { id status kycStatus kycVerifiedAt } }`;
const RECORD_NMID = `mutation ($id: ID!, $nmid: String!) { recordNmidAssignment(merchantId: $id, nmid: $nmid) { id status kycStatus } }`;
const UPDATE_PROFILE = `mutation ($input: UpdateMerchantProfileInput!) { updateMerchantProfile(input: $input) { id name legalName address { line city province postalCode country } } }`;

describe('merchant lifecycle mutations (merchant subgraph over HTTP)', () => {
  let database: TestDatabase;
  let config: Config;
  let app: FastifyInstance;
  let url: string;
  let orm: Orm;
  const logs: Record<string, any>[] = [];
  const fork = () => orm.em.fork() as EntityManager;
  const sql = async <T = Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await orm.em.getKnex().raw(text, params as never[])).rows as T[];

  async function call(principal: Principal, query: string, variables: Record<string, unknown>): Promise<GraphQLResponse> {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: await signPrincipal(principal, config.secrets.principalSecret) },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.body.json()) as GraphQLResponse;
  }
  const errorOf = (response: GraphQLResponse) => ({ message: response.errors?.[0]?.message, ...response.errors?.[0]?.extensions });

  async function newMerchant(bankCode = 'BDEMO', status: Merchant['status'] = 'draft'): Promise<string> {
    const em = fork();
    const merchant = em.create(Merchant, {
      merchantCode: newMerchantCode(),
      name: 'Kedai Uji',
      status,
      bank: await em.findOneOrFail(Bank, { code: bankCode }),
    });
    await em.flush();
    return merchant.id;
  }

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.adminUrl });
    orm = await openSubgraphOrm(merchantSubgraph, config);
    app = await createSubgraphApp(merchantSubgraph, config, { logStream: { write: (line) => void logs.push(JSON.parse(line)) } });
    url = `${await app.listen({ host: '127.0.0.1', port: 0 })}/graphql`;
    await new BankService(fork(), secretBoxFor(config)).create({ code: 'RSX', name: 'External bank', tier: 'external' });
    await new WebhookService(fork(), secretBoxFor(config), new OutboundUrlPolicy(config.outboundUrls)).setEndpoint(
      'BDEMO',
      'http://127.0.0.1:9/hooks',
    );
  });
  afterAll(async () => {
    await app?.close();
    await orm?.close();
    await database?.drop();
  });

  it('completes the first activation through approval, KYC and NMID, and logs each step with its webhook', async () => {
    const id = await newMerchant();
    expect(await call(OPERATOR, CHANGE_STATUS, { input: { merchantId: id, targetStatus: 'active', reason: 'documents checked' } })).toEqual(
      {
        data: { changeMerchantStatus: { id, status: 'active', kycStatus: 'pending' } },
      },
    );
    const kyc = await call(INTERNAL, VERIFY_KYC, { id });
    expect(kyc.data.verifyMerchantKyc).toMatchObject({ status: 'active', kycStatus: 'verified', kycVerifiedAt: expect.any(String) });
    expect(await call(DEMO_BANK, RECORD_NMID, { id, nmid: 'ID5026112200001' })).toEqual({
      data: { recordNmidAssignment: { id, status: 'active', kycStatus: 'verified' } },
    });
    const [delivery] = await sql('select id, event from merchant.webhook_deliveries where merchant_id = ?', [id]);
    expect(delivery.event).toBe('merchant.activated');
    const lines = logs
      .filter((l) => l.merchant_id === id)
      .map(({ msg, from, to, by, webhook_event_id }) => ({ msg, from, to, by, webhook_event_id }));
    expect(lines).toEqual([
      { msg: 'merchant status changed', from: 'draft', to: 'active', by: 'operator', webhook_event_id: null },
      { msg: 'merchant kyc verified', from: 'active', to: 'active', by: 'internal', webhook_event_id: null },
      { msg: 'merchant nmid recorded', from: 'active', to: 'active', by: 'bank', webhook_event_id: delivery.id },
    ]);
  });

  it('answers CONFLICT (reason invalid_transition) for a move the table does not have', async () => {
    const id = await newMerchant();
    const response = await call(OPERATOR, CHANGE_STATUS, { input: { merchantId: id, targetStatus: 'suspended', reason: 'violation' } });
    expect(response.data).toBeNull();
    expect(errorOf(response)).toEqual({
      message: 'cannot move a merchant from draft to suspended',
      code: 'CONFLICT',
      reason: 'invalid_transition',
    });
  });

  it('updates the profile and answers BAD_USER_INPUT and NOT_FOUND as documented', async () => {
    const id = await newMerchant();
    const input = { merchantId: id, legalName: 'CV Kedai Uji', address: { city: 'Surabaya', postalCode: '60111' } };
    expect((await call(OPERATOR, UPDATE_PROFILE, { input })).data.updateMerchantProfile).toEqual({
      id,
      name: 'Kedai Uji',
      legalName: 'CV Kedai Uji',
      address: { line: null, city: 'Surabaya', province: null, postalCode: '60111', country: 'ID' },
    });
    expect(errorOf(await call(OPERATOR, UPDATE_PROFILE, { input: { merchantId: id, address: { postalCode: 'x' } } }))).toEqual({
      message: 'postalCode must be 5 digits',
      code: 'BAD_USER_INPUT',
    });
    expect(errorOf(await call(OPERATOR, VERIFY_KYC, { id: '019a0000-0000-7000-8000-0000000fffff' }))).toEqual({
      message: 'merchant not found',
      code: 'NOT_FOUND',
    });
  });

  it('lets only internal callers and operators change status, KYC and profile', async () => {
    const id = await newMerchant();
    for (const principal of [DEMO_BANK, { kind: 'user', userId: 'u-1' }, { kind: 'service', service: 'rest' }] as Principal[]) {
      expect(errorOf(await call(principal, CHANGE_STATUS, { input: { merchantId: id, targetStatus: 'active' } }))).toMatchObject({
        code: 'FORBIDDEN',
      });
      expect(errorOf(await call(principal, VERIFY_KYC, { id }))).toMatchObject({ code: 'FORBIDDEN' });
      expect(errorOf(await call(principal, UPDATE_PROFILE, { input: { merchantId: id, name: 'X' } }))).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await sql('select status, kyc_status, name from merchant.merchants where id = ?', [id]))[0]).toEqual({
      status: 'draft',
      kyc_status: 'pending',
      name: 'Kedai Uji',
    });
  });

  it('lets a bank record an NMID only for its own merchant and only at tier 1', async () => {
    const [external] = await sql<{ id: string }>(`select id from merchant.banks where code = 'RSX'`);
    const ofExternal = await newMerchant('RSX');
    const ofDemo = await newMerchant('BDEMO');
    const externalBank: Principal = { kind: 'bank', bankId: external.id, bankCode: 'RSX', tier: 2 };
    expect(errorOf(await call(externalBank, RECORD_NMID, { id: ofExternal, nmid: 'ID5026112200002' }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(errorOf(await call(DEMO_BANK, RECORD_NMID, { id: ofExternal, nmid: 'ID5026112200002' }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(errorOf(await call({ kind: 'user', userId: 'u-1' }, RECORD_NMID, { id: ofDemo, nmid: 'ID5026112200002' }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await call(DEMO_BANK, RECORD_NMID, { id: ofDemo, nmid: 'ID5026112200002' })).data.recordNmidAssignment.id).toBe(ofDemo);
    expect((await call(OPERATOR, RECORD_NMID, { id: ofExternal, nmid: 'ID5026112200003' })).data.recordNmidAssignment.id).toBe(ofExternal);
    expect(await sql('select primary_nmid from merchant.merchants where id in (?, ?) order by primary_nmid', [ofDemo, ofExternal])).toEqual(
      [{ primary_nmid: 'ID5026112200002' }, { primary_nmid: 'ID5026112200003' }],
    );
  });

  it('gave the demo merchant its first NMID in the seed', async () => {
    expect(
      await sql('select primary_nmid, nmid_assigned_at is not null as assigned from merchant.merchants where id = ?', [DEMO.merchantId]),
    ).toEqual([{ primary_nmid: DEMO.outlets[0].nmid, assigned: true }]);
  });
});
