import { createHmac } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import type { SubgraphName } from '@lib/config/config';
import { createBank, onboardMerchant } from '@scripts/database-tasks';
import { eventually } from '../support/eventually';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * The outlet subgraph's copy of what banks see of merchants (docs/decisions/0211-bank-view-read-model.md): kept from
 * the merchant subgraph's jobs, read by the bank paths in one subgraph fetch, never the reason an answer is missing.
 */
describe('bank view read model (outlet.merchant_profiles)', () => {
  let stack: TestStack;
  let bank: { keyId: string; secret: string };
  let merchant: { merchant_id: string; outlets: { nmid: string | null }[] };
  /** The by-NMID answer (with outlets) read from the copy, to compare with the owners'. */
  let fromCopy: { merchant: Record<string, unknown>; outlets: unknown[] };
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    adminQuery(stack.database.adminUrl, text, params) as Promise<T[]>;

  const lookUp = (target: string) => {
    const timestamp = new Date().toISOString();
    const signature = createHmac('sha256', bank.secret).update(`GET\n${target}\n${timestamp}\n`).digest('hex');
    return stack.rest.inject({
      method: 'GET',
      url: target,
      headers: { 'x-api-key-id': bank.keyId, 'x-timestamp': timestamp, 'x-signature': signature },
    });
  };
  const graphqlCalls = (subgraph: SubgraphName) => stack.restFetches(subgraph);
  /** The SQL statements the outlet subgraph sends while `run` runs (its ORM's knex reports each). */
  const outletStatements = async (run: () => Promise<unknown>) => {
    const knex = stack.restOrm('outlet').em.getKnex();
    const statements: string[] = [];
    const record = ({ sql: text }: { sql: string }) => statements.push(text);
    knex.on('query', record);
    try {
      await run();
    } finally {
      knex.off('query', record);
    }
    return statements;
  };
  /** The copy's row of the merchant once `ready` holds for it (jobs run within milliseconds; 5 s at most). */
  const copyOnce = async (ready: (row: Record<string, unknown> | undefined) => boolean) => {
    const found = await eventually('the copy did not follow', async () => {
      const [row] = await sql('select * from outlet.merchant_profiles where merchant_id = $1', [merchant.merchant_id]);
      return ready(row) ? { row } : undefined;
    });
    return found.row;
  };
  const jobsDrained = () =>
    eventually('merchant_profiles jobs did not drain', async () => {
      const [{ n }] = await sql<{ n: string }>(
        `select count(*) as n from graphile_worker.jobs where task_identifier = 'merchant_profiles'`,
      );
      return n === '0' ? true : undefined;
    });

  beforeAll(async () => {
    // Cache invalidation travels through Redis (lib/events/cache-invalidation.ts).
    stack = await startTestStack({ REDIS_URL: 'redis://127.0.0.1:6379' });
    const created = await createBank(stack.config, stack.database.adminUrl, { code: 'BANKV', name: 'Bank V', tier: 'external' });
    bank = { keyId: created.lookup_key_id, secret: created.lookup_secret };
    merchant = await onboardMerchant(stack.config, stack.database.adminUrl, {
      name: 'Toko Salinan',
      bankCode: 'BANKV',
      nmids: ['ID1026120210000', 'ID1026120210001'],
      outlets: 2,
      categoryCode: '5411',
    });
  });
  afterAll(() => stack?.close());

  it('copies every bank-facing column of a new merchant, with its bank', async () => {
    const copy = await copyOnce((row) => row?.psp_visible_at != null);
    const [owner] = await sql(
      `select m.*, b.code as bank_code from merchant.merchants m join merchant.banks b on b.id = m.bank_id where m.id = $1`,
      [merchant.merchant_id],
    );
    for (const column of [
      'bank_id',
      'bank_code',
      'name',
      'status',
      'category_code',
      'address_country',
      'kyc_status',
      'psp_visible_at',
      'updated_at',
    ]) {
      expect([column, copy[column]]).toEqual([column, owner[column]]);
    }
  });

  it('answers a lookup with one outlet fetch, and the owners only when include_owners asks for them', async () => {
    await copyOnce((row) => row?.psp_visible_at != null);
    expect((await lookUp(`/api/psp/v1/merchants/by-nmid/${merchant.outlets[1].nmid}`)).statusCode).toBe(200); // the bank's key, cached
    const [outletBefore, merchantBefore] = [await graphqlCalls('outlet'), await graphqlCalls('merchant')];
    let res;
    const statements = await outletStatements(async () => {
      res = await lookUp(`/api/psp/v1/merchants/by-nmid/${merchant.outlets[1].nmid}?include_outlets=true`);
    });
    expect(res!.statusCode).toBe(200);
    expect(res!.json()).toMatchObject({ merchant: { id: merchant.merchant_id, merchant_name: 'Toko Salinan', bank_code: 'BANKV' } });
    expect(res!.json().outlets).toHaveLength(2);
    expect([(await graphqlCalls('outlet')) - outletBefore, (await graphqlCalls('merchant')) - merchantBefore]).toEqual([1, 0]);
    // One statement reads the outlet, the profile, the merchant's outlets, NMID and primary terminal (decision 0211);
    // the last test compares them with the owners' answer.
    expect(statements).toHaveLength(1);
    fromCopy = res!.json();

    const withOwners = await lookUp(`/api/psp/v1/merchants/by-nmid/${merchant.outlets[1].nmid}?include_owners=true`);
    expect(withOwners.statusCode).toBe(200);
    expect((await graphqlCalls('merchant')) - merchantBefore).toBe(1);
  });

  it('follows a change of status into cached lookups (invalidated when the copy changes)', async () => {
    const target = `/api/psp/v1/merchants/by-nmid/${merchant.outlets[0].nmid}`;
    expect((await lookUp(target)).json().merchant.status).toBe('active');
    await sql(`update merchant.merchants set status = 'suspended', updated_at = now() where id = $1`, [merchant.merchant_id]);
    await copyOnce((row) => row?.status === 'suspended');
    let status = '';
    for (let i = 0; i < 100 && status !== 'suspended'; i++) {
      status = (await lookUp(target)).json().merchant.status;
      if (status !== 'suspended') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe('suspended');
    await sql(`update merchant.merchants set status = 'active', updated_at = now() where id = $1`, [merchant.merchant_id]);
    await copyOnce((row) => row?.status === 'active');
  });

  it('keeps the owner’s visibility rule: before activation a bank (not tier 1) gets 404 from the copy, the tier-1 PSP its merchant', async () => {
    await sql(`update merchant.merchants set psp_visible_at = null where id in ($1, $2)`, [merchant.merchant_id, DEMO.merchantId]);
    await copyOnce((row) => row !== undefined && row.psp_visible_at === null);
    const ownersBefore = await graphqlCalls('merchant');
    const hidden = await lookUp(`/api/psp/v1/merchants/by-nmid/${merchant.outlets[1].nmid}?include_outlets=true`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: expect.any(String), code: 'not_found' });
    // The copy refused it; the owners, asked again, refuse it too.
    expect((await graphqlCalls('merchant')) - ownersBefore).toBe(1);

    const timestamp = new Date().toISOString();
    const target = `/api/psp/v1/merchants/by-nmid/${DEMO.outlets[1].nmid}?include_outlets=true`;
    const signature = createHmac('sha256', DEMO.bank.lookupSecret).update(`GET\n${target}\n${timestamp}\n`).digest('hex');
    const tier1 = await stack.rest.inject({
      method: 'GET',
      url: target,
      headers: { 'x-api-key-id': DEMO.bank.lookupKeyId, 'x-timestamp': timestamp, 'x-signature': signature },
    });
    expect(tier1.statusCode).toBe(200);
    expect(tier1.json().merchant).toMatchObject({ id: DEMO.merchantId, bank_code: 'BDEMO' });

    await sql(`update merchant.merchants set psp_visible_at = now() where id in ($1, $2)`, [merchant.merchant_id, DEMO.merchantId]);
    await copyOnce((row) => row?.psp_visible_at != null);
  });

  it('sends nothing for a change banks do not see, and never lets an older version overwrite a newer one', async () => {
    await jobsDrained();
    const before = await copyOnce((row) => row !== undefined);
    await sql(`update merchant.merchants set referral_code = 'REF-SALINAN' where id = $1`, [merchant.merchant_id]);
    expect(await sql(`select 1 from graphile_worker.jobs where task_identifier = 'merchant_profiles'`)).toEqual([]);

    const stale = { ...before, version: Number(before.version) - 1, name: 'Nama Lama' };
    await sql(`select graphile_worker.add_job('merchant_profiles', json_build_object('profiles', json_build_array($1::json)))`, [
      JSON.stringify(stale),
    ]);
    await jobsDrained();
    expect((await copyOnce((row) => row !== undefined)).name).toBe('Toko Salinan');
  });

  it('asks the owners for what the copy lacks: a lookup and an event still find the merchant', async () => {
    expect((await lookUp('/api/psp/v1/merchants/by-nmid/ID1026120219999')).statusCode).toBe(404); // the bank's key, cached
    await sql(`delete from outlet.merchant_profiles where merchant_id = $1`, [merchant.merchant_id]);
    const merchantBefore = await graphqlCalls('merchant');
    const res = await lookUp(`/api/psp/v1/merchants/by-nmid/${merchant.outlets[0].nmid}?include_outlets=true`);
    expect(res.statusCode).toBe(200);
    expect(res.json().merchant).toMatchObject({ id: merchant.merchant_id, status: 'active' });
    expect((await graphqlCalls('merchant')) - merchantBefore).toBe(1);
    // What the copy's one statement read ahead is what the owners answer.
    const { nmid, device_model, device_status } = fromCopy.merchant;
    expect(res.json().merchant).toMatchObject({ nmid, device_model, device_status });
    expect(res.json().outlets).toEqual(fromCopy.outlets);
  });
});
