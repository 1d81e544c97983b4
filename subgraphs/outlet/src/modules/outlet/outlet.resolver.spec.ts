import { request } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { ACTING_PRINCIPAL_HEADER, PRINCIPAL_HEADER, type Principal, encodeActingPrincipal, signPrincipal } from '@lib/auth/principal';
import { issueServiceToken } from '@lib/auth/service-token';
import type { Orm } from '@lib/db/orm';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestStack, startTestStack } from '@test/support/test-stack';
import { outletSubgraph } from '@subgraphs/outlet/src/app';
import { OutletService } from './outlet.service';

interface GraphQLResponse {
  data?: any;
  errors?: { message: string; extensions?: { code?: string; reason?: string } }[];
}

const SERVICE: Principal = { kind: 'service', service: 'test' };
const OPERATOR: Principal = { kind: 'operator', operatorId: 'op-1', roles: ['admin'] };
const DEMO_BANK: Principal = { kind: 'bank', bankId: 'bank-demo', bankCode: 'BDEMO', tier: 1 };
const OTHER_BANK: Principal = { kind: 'bank', bankId: 'bank-other', bankCode: 'BOTHER', tier: 2 };
const OTHER_TIER1_BANK: Principal = { kind: 'bank', bankId: 'bank-t1', bankCode: 'BTIER1', tier: 1 };

const OUTLET_BY_NMID = `query ($nmid: String!) {
  outletByNmid(nmid: $nmid) { code nmid nmidStatus nmidBankCode mid city merchant { id } terminals { tid model status outlet { code } } }
}`;
const ASSIGN = `mutation ($input: AssignNmidInput!) { assignNmid(input: $input) { id code nmid nmidBankCode nmidStatus mid } }`;
const CHANGE_STATUS = `mutation ($input: ChangeNmidStatusInput!) { changeNmidStatus(input: $input) { code nmid nmidStatus } }`;

describe('outlet subgraph: NMIDs, terminals and Merchant fields (whole stack)', () => {
  let stack: TestStack;
  let orm: Orm;

  /** Straight to the outlet subgraph, as the gateway would sign the principal. */
  async function subgraph(principal: Principal, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResponse> {
    const res = await request(stack.subgraphs.outlet.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [PRINCIPAL_HEADER]: await signPrincipal(principal, stack.config.secrets.principalSecret),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.body.json()) as GraphQLResponse;
  }

  /** Through the gateway with a service token, acting as `principal` when given. */
  async function gateway(query: string, principal?: Principal, variables: Record<string, unknown> = {}): Promise<GraphQLResponse> {
    const token = await issueServiceToken('test', stack.config.secrets.serviceTokenSecret);
    const res = await request(stack.gatewayUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(principal ? { [ACTING_PRINCIPAL_HEADER]: encodeActingPrincipal(principal) } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.body.json()) as GraphQLResponse;
  }

  const errorOf = (response: GraphQLResponse) => ({ code: response.errors?.[0]?.extensions?.code, message: response.errors?.[0]?.message });
  const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await orm.em.getKnex().raw(text, params as never[])).rows as T[];
  /** Outlets for one test, made the way operator tooling makes them. */
  async function newMerchant(codes: string[]): Promise<{ merchantId: string; outlets: Record<string, string> }> {
    const merchantId = uuidv7();
    const created = await new OutletService(orm.em.fork()).createForMerchant(
      merchantId,
      codes.map((code, i) => ({ code, name: `Outlet ${code}`, isDefault: i === 0 })),
    );
    return { merchantId, outlets: Object.fromEntries(created.map((o) => [o.code, o.id])) };
  }

  beforeAll(async () => {
    stack = await startTestStack();
    orm = await openSubgraphOrm(outletSubgraph, stack.config, stack.database.adminUrl);
  });
  afterAll(async () => {
    await orm?.close();
    await stack?.close();
  });

  describe('outletByNmid', () => {
    const nmid = DEMO.outlets[0].nmid;

    it('finds the outlet, its terminals and merchant for a service and for the bank that issued the NMID', async () => {
      const expected = {
        code: 'PUSAT',
        nmid,
        nmidStatus: 'active',
        nmidBankCode: 'BDEMO',
        mid: 'MDEMO0001',
        city: 'Jakarta Pusat',
        merchant: { id: DEMO.merchantId },
        terminals: [{ tid: 'TDEMO0001', model: 'QRIS Soundbox S1', status: 'online', outlet: { code: 'PUSAT' } }],
      };
      for (const principal of [SERVICE, OPERATOR, DEMO_BANK]) {
        expect(await subgraph(principal, OUTLET_BY_NMID, { nmid })).toEqual({ data: { outletByNmid: expected } });
      }
    });

    it('answers null to another bank, as for an unknown or malformed NMID', async () => {
      for (const [principal, value] of [
        [OTHER_BANK, nmid],
        [OTHER_TIER1_BANK, nmid],
        [SERVICE, 'ID9999999999999'],
        [SERVICE, 'nope'],
      ] as const) {
        expect(await subgraph(principal, OUTLET_BY_NMID, { nmid: value })).toEqual({ data: { outletByNmid: null } });
      }
    });

    it('does not find a soft-deleted outlet', async () => {
      const { merchantId, outlets } = await newMerchant(['GONE']);
      await subgraph(OPERATOR, ASSIGN, { input: { merchantId, nmid: 'ID3026112200001', bankCode: 'BDEMO' } });
      await sql('update outlet.outlets set deleted_at = now() where id = ?', [outlets.GONE]);
      expect(await subgraph(SERVICE, OUTLET_BY_NMID, { nmid: 'ID3026112200001' })).toEqual({ data: { outletByNmid: null } });
    });

    it('is forbidden to other principal kinds', async () => {
      expect(errorOf(await subgraph({ kind: 'user', userId: 'u' }, OUTLET_BY_NMID, { nmid }))).toMatchObject({ code: 'FORBIDDEN' });
    });
  });

  describe('assignNmid', () => {
    it('assigns to the default outlet when none is named, with bank code, MID and status active', async () => {
      const { merchantId, outlets } = await newMerchant(['HQ', 'BRANCH']);
      const { data, errors } = await subgraph(OPERATOR, ASSIGN, {
        input: { merchantId, nmid: 'ID3026112200101', bankCode: 'BDEMO', mid: 'MID-101' },
      });
      expect(errors).toBeUndefined();
      expect(data.assignNmid).toEqual({
        id: outlets.HQ,
        code: 'HQ',
        nmid: 'ID3026112200101',
        nmidBankCode: 'BDEMO',
        nmidStatus: 'active',
        mid: 'MID-101',
      });
      const [row] = await sql<{ nmid_assigned_at: string | null }>('select nmid_assigned_at from outlet.outlets where id = ?', [
        outlets.HQ,
      ]);
      expect(row.nmid_assigned_at).not.toBeNull();
    });

    it('is idempotent: the same NMID again returns the outlet and keeps status and assignment time', async () => {
      const { merchantId, outlets } = await newMerchant(['HQ', 'BRANCH']);
      const input = { merchantId, outletId: outlets.BRANCH, nmid: 'ID3026112200201', bankCode: 'BDEMO' };
      const first = await subgraph(OPERATOR, ASSIGN, { input });
      const [before] = await sql('select nmid_assigned_at, updated_at from outlet.outlets where id = ?', [outlets.BRANCH]);
      const again = await subgraph(OPERATOR, ASSIGN, { input });
      expect(again).toEqual(first);
      expect(again.data.assignNmid).toMatchObject({ code: 'BRANCH', nmid: 'ID3026112200201' });
      expect(await sql('select nmid_assigned_at, updated_at from outlet.outlets where id = ?', [outlets.BRANCH])).toEqual([before]);
    });

    it('refuses a malformed NMID or bank code with a clear message', async () => {
      const { merchantId } = await newMerchant(['HQ']);
      expect(errorOf(await subgraph(OPERATOR, ASSIGN, { input: { merchantId, nmid: 'ID12345', bankCode: 'BDEMO' } }))).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'nmid must be "ID" followed by 10 to 15 digits',
      });
      expect(errorOf(await subgraph(OPERATOR, ASSIGN, { input: { merchantId, nmid: 'ID3026112200301', bankCode: 'bdemo' } }))).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'bankCode must be 2 to 12 upper-case letters or digits',
      });
    });

    it("answers NOT_FOUND for another merchant's outlet, a deleted outlet or a merchant without outlets", async () => {
      const { merchantId } = await newMerchant(['HQ']);
      const other = await newMerchant(['HQ', 'DELETED']);
      await sql('update outlet.outlets set deleted_at = now() where id = ?', [other.outlets.DELETED]);
      const inputs = [
        { merchantId, outletId: other.outlets.HQ },
        { merchantId: other.merchantId, outletId: other.outlets.DELETED },
        { merchantId: uuidv7() },
        { merchantId: 'not-a-uuid' },
      ];
      for (const input of inputs) {
        expect(errorOf(await subgraph(OPERATOR, ASSIGN, { input: { ...input, nmid: 'ID3026112200401', bankCode: 'BDEMO' } }))).toEqual({
          code: 'NOT_FOUND',
          message: 'outlet not found',
        });
      }
    });

    it('answers CONFLICT (reason nmid_taken) for an NMID of another outlet', async () => {
      const { merchantId } = await newMerchant(['HQ']);
      const response = await subgraph(OPERATOR, ASSIGN, { input: { merchantId, nmid: DEMO.outlets[1].nmid, bankCode: 'BDEMO' } });
      expect(response.errors?.[0].extensions).toEqual({ code: 'CONFLICT', reason: 'nmid_taken' });
    });

    it('is forbidden to a bank below tier 1 and allowed to the tier-1 PSP', async () => {
      const { merchantId } = await newMerchant(['HQ']);
      const input = { merchantId, nmid: 'ID3026112200501', bankCode: 'BOTHER' };
      expect(errorOf(await subgraph(OTHER_BANK, ASSIGN, { input }))).toMatchObject({ code: 'FORBIDDEN' });
      expect((await subgraph(DEMO_BANK, ASSIGN, { input })).data.assignNmid).toMatchObject({
        nmid: 'ID3026112200501',
        nmidBankCode: 'BOTHER',
      });
      expect(errorOf(await subgraph(SERVICE, ASSIGN, { input }))).toMatchObject({ code: 'FORBIDDEN' });
    });

    it('lets exactly one of two concurrent assignments of the same NMID to two outlets win', async () => {
      for (let round = 0; round < 5; round++) {
        const { merchantId, outlets } = await newMerchant(['A', 'B']);
        const nmid = `ID30261122006${String(round).padStart(2, '0')}`;
        const results = await Promise.all(
          [outlets.A, outlets.B].map((outletId) =>
            subgraph(OPERATOR, ASSIGN, { input: { merchantId, outletId, nmid, bankCode: 'BDEMO' } }),
          ),
        );
        expect(results.filter((r) => r.data?.assignNmid?.nmid === nmid)).toHaveLength(1);
        expect(results.filter((r) => r.errors?.[0].extensions?.reason === 'nmid_taken')).toHaveLength(1);
        expect(await sql('select count(*)::int as n from outlet.outlets where nmid = ?', [nmid])).toEqual([{ n: 1 }]);
      }
    });
  });

  describe('changeNmidStatus', () => {
    const nmid = DEMO.outlets[1].nmid;
    const statusOf = async () =>
      (await sql<{ nmid_status: string }>('select nmid_status from outlet.outlets where nmid = ?', [nmid]))[0].nmid_status;

    it('lets the issuing bank suspend and reactivate its NMID, idempotently, logging each change once', async () => {
      const suspend = { nmid, status: 'suspended', reason: 'fraud review' };
      const suspended = { data: { changeNmidStatus: { code: 'MENTENG', nmid, nmidStatus: 'suspended' } } };
      expect(await subgraph(DEMO_BANK, CHANGE_STATUS, { input: suspend })).toEqual(suspended);
      expect(await subgraph(DEMO_BANK, CHANGE_STATUS, { input: suspend })).toEqual(suspended);
      expect(await statusOf()).toBe('suspended');
      const changes = stack.logs.filter((line) => line.msg === 'nmid status changed' && line.nmid === nmid);
      expect(changes).toEqual([expect.objectContaining({ from: 'active', to: 'suspended', reason: 'fraud review', by: 'bank' })]);
      expect((await subgraph(OPERATOR, CHANGE_STATUS, { input: { nmid, status: 'active' } })).data.changeNmidStatus.nmidStatus).toBe(
        'active',
      );
    });

    it('answers null to another bank and leaves the NMID as it is', async () => {
      expect(await subgraph(OTHER_BANK, CHANGE_STATUS, { input: { nmid, status: 'suspended' } })).toEqual({
        data: { changeNmidStatus: null },
      });
      expect(await statusOf()).toBe('active');
      expect(await subgraph(OPERATOR, CHANGE_STATUS, { input: { nmid: 'ID9999999999999', status: 'suspended' } })).toEqual({
        data: { changeNmidStatus: null },
      });
    });

    it('refuses a status other than active or suspended', async () => {
      expect(errorOf(await subgraph(DEMO_BANK, CHANGE_STATUS, { input: { nmid, status: 'blocked' } }))).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'status must be active or suspended',
      });
    });
  });

  describe('Merchant fields through the gateway', () => {
    it('resolves defaultOutlet, nmid and terminal of the demo merchant', async () => {
      const { data, errors } = await gateway(`{
        merchant(id: "${DEMO.merchantId}") {
          merchantCode
          nmid
          defaultOutlet { code nmid nmidBankCode addressLine city province postalCode terminals { tid } }
          terminal { tid model status lastSeenAt outlet { code merchant { merchantCode } } }
        }
      }`);
      expect(errors).toBeUndefined();
      expect(data.merchant).toEqual({
        merchantCode: DEMO.merchantCode,
        nmid: DEMO.outlets[0].nmid,
        defaultOutlet: {
          code: 'PUSAT',
          nmid: DEMO.outlets[0].nmid,
          nmidBankCode: 'BDEMO',
          addressLine: 'Jl. Kebon Sirih No. 10',
          city: 'Jakarta Pusat',
          province: 'DKI Jakarta',
          postalCode: '10340',
          terminals: [{ tid: 'TDEMO0001' }],
        },
        // Both demo terminals were seen at the same instant; the later id wins the tie.
        terminal: {
          tid: 'TDEMO0002',
          model: 'QRIS Soundbox S1',
          status: 'online',
          lastSeenAt: expect.any(String),
          outlet: { code: 'MENTENG', merchant: { merchantCode: DEMO.merchantCode } },
        },
      });
    });

    it('resolves several NMIDs of one bank through the gateway, each item as that bank', async () => {
      const demoBank: Principal = { kind: 'bank', bankId: DEMO.bank.id, bankCode: 'BDEMO', tier: 1 };
      const query = `query ($requests: [NmidOfBankInput!]!) { outletsByNmid(requests: $requests) { code merchant { id status bankCode } } }`;
      const nmid = DEMO.outlets[0].nmid;
      const requests = [
        { bankCode: 'BDEMO', nmid },
        { bankCode: 'BDEMO', nmid: 'ID9999999999999' },
      ];
      expect((await gateway(query, demoBank, { requests })).data).toEqual({
        outletsByNmid: [{ code: 'PUSAT', merchant: { id: DEMO.merchantId, status: 'active', bankCode: 'BDEMO' } }, null],
      });
      // The merchant subgraph scopes the merchant by the bank (its id): a merchant of another bank is not resolved,
      // and the item (whose merchant is non-null) comes back null.
      const stranger = await gateway(query, DEMO_BANK, { requests: [{ bankCode: 'BDEMO', nmid }] });
      expect(stranger.errors).toBeUndefined();
      expect(stranger.data).toEqual({ outletsByNmid: [null] });
    });

    it('refuses a micro-batch of several banks (the merchant subgraph would see the principal, not the item), an item naming another bank, and batches over 500', async () => {
      const query = `query ($requests: [NmidOfBankInput!]!) { outletsByNmid(requests: $requests) { code } }`;
      const nmid = DEMO.outlets[0].nmid;
      const batch: Principal = { kind: 'banks', banks: [DEMO_BANK, OTHER_BANK] };
      expect(errorOf(await subgraph(batch, query, { requests: [{ bankCode: 'BDEMO', nmid }] }))).toMatchObject({ code: 'FORBIDDEN' });
      expect(errorOf(await subgraph(DEMO_BANK, query, { requests: [{ bankCode: 'BOTHER', nmid }] }))).toMatchObject({ code: 'FORBIDDEN' });
      const many = Array.from({ length: 501 }, () => ({ bankCode: 'BOTHER', nmid }));
      expect(errorOf(await subgraph(OTHER_BANK, query, { requests: many }))).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(errorOf(await subgraph(SERVICE, query, { requests: [] }))).toMatchObject({ code: 'FORBIDDEN' });
    });

    it('serves outletByNmid to a bank acting through the gateway, scoped to its NMIDs', async () => {
      const query = `{ outletByNmid(nmid: "${DEMO.outlets[0].nmid}") { code merchant { id } } }`;
      expect((await gateway(query, DEMO_BANK)).data).toEqual({ outletByNmid: { code: 'PUSAT', merchant: { id: DEMO.merchantId } } });
      expect((await gateway(query, OTHER_BANK)).data).toEqual({ outletByNmid: null });
    });
  });
});
