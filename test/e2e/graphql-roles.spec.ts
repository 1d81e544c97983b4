import { DEMO } from '@lib/domain/demo/demo-ids';
import { codes, freshPhone, gql, memberHeaders, postGraphQL } from '../support/graphql';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * Enterprise roles (owner, admin, staff, viewer) against every operation family of the app, enforced in the
 * subgraphs: reading (merchant, outlets, terminals, transactions, summary), members, corporate settings (partner
 * consent, outlet create/delete), outlet management (outlet update, catalog) and the cashier's writes (POS push).
 */
describe('GraphQL enterprise roles', () => {
  let stack: TestStack;
  const minimarket = DEMO.otherMerchants[1];
  const [gambir, cideng, petojo] = minimarket.outlets.map((o) => o.id);
  let gambirTerminal: string;
  type Role = 'owner' | 'admin' | 'staff' | 'staffDevice' | 'viewer' | 'viewerAll';
  const as: Record<Role, { authorization: string }> = {} as never;

  beforeAll(async () => {
    stack = await startTestStack();
    [{ id: gambirTerminal }] = await adminQuery<{ id: string }>(
      stack.database.adminUrl,
      `select id from outlet.terminals where outlet_id = $1 order by created_at limit 1`,
      [gambir],
    );
    as.owner = (await memberHeaders(stack, minimarket.id, 'owner')).headers;
    as.admin = (await memberHeaders(stack, minimarket.id, 'admin', [gambir, cideng])).headers;
    as.staff = (await memberHeaders(stack, minimarket.id, 'staff', [gambir])).headers;
    as.staffDevice = (await memberHeaders(stack, minimarket.id, 'staff', [gambir], gambirTerminal)).headers;
    as.viewer = (await memberHeaders(stack, minimarket.id, 'viewer', [petojo])).headers;
    as.viewerAll = (await memberHeaders(stack, minimarket.id, 'viewer')).headers;
    // Transactions on every outlet, one of them on the staff member's device (outlet totals: Petojo 4000, Gambir and Cideng 3000 each).
    await adminQuery(
      stack.database.adminUrl,
      `insert into "transaction".transactions (id, merchant_id, outlet_id, terminal_id, bank_code, nmid, transaction_code, status, gross_amount, payment_method, currency, mdr_rate,
         mdr_fee_amount, net_amount_after_mdr, mdr_fee_bank, switching_fee, platform_fee, refunded_amount, settlement_status, transaction_at, created_at, updated_at)
       select gen_random_uuid(), $1, o.outlet_id, o.terminal_id, 'BDEMO', 'ID0000000000', 'RT-' || o.n, 'success', 1000 * o.n, 'qris', 'IDR', 0.007, 7 * o.n, 993 * o.n, 0, 0, 0, 0, 'unsettled',
              timestamptz '2030-01-15T10:00:00Z' + o.n * interval '1 minute', now(), now()
         from (values ($2::uuid, $5::uuid, 1), ($2::uuid, null::uuid, 2), ($3::uuid, null::uuid, 3), ($4::uuid, null::uuid, 4)) as o(outlet_id, terminal_id, n)`,
      [minimarket.id, gambir, cideng, petojo, gambirTerminal],
    );
  });
  afterAll(async () => {
    await stack?.close();
  });

  const run = (role: Role, query: string, variables: Record<string, unknown> = {}) => gql(stack, query, variables, as[role]);
  const roles: Role[] = ['owner', 'admin', 'staff', 'staffDevice', 'viewer', 'viewerAll'];

  it('every role reads its merchant; outlets and terminals are limited to its outlets (and device)', async () => {
    const seen: Record<string, unknown> = {};
    for (const role of roles) {
      const answer = await run(role, `{ myMerchant { id outlets { id } defaultOutlet { id } terminals { id outlet { id } } } }`);
      expect(answer.errors).toBeUndefined();
      const merchant = answer.data.myMerchant;
      seen[role] = {
        merchant: merchant.id === minimarket.id,
        outlets: merchant.outlets.map((o: { id: string }) => o.id).sort(),
        defaultOutlet: merchant.defaultOutlet.id,
        terminalOutlets: [...new Set(merchant.terminals.map((t: { outlet: { id: string } }) => t.outlet.id))].sort(),
        terminals: merchant.terminals.length,
      };
    }
    const all = [gambir, cideng, petojo].sort();
    expect(seen).toEqual({
      owner: { merchant: true, outlets: all, defaultOutlet: gambir, terminalOutlets: all, terminals: 3 },
      admin: {
        merchant: true,
        outlets: [gambir, cideng].sort(),
        defaultOutlet: gambir,
        terminalOutlets: [gambir, cideng].sort(),
        terminals: 2,
      },
      staff: { merchant: true, outlets: [gambir], defaultOutlet: gambir, terminalOutlets: [gambir], terminals: 1 },
      staffDevice: { merchant: true, outlets: [gambir], defaultOutlet: gambir, terminalOutlets: [gambir], terminals: 1 },
      viewer: { merchant: true, outlets: [petojo], defaultOutlet: petojo, terminalOutlets: [petojo], terminals: 1 },
      viewerAll: { merchant: true, outlets: all, defaultOutlet: gambir, terminalOutlets: all, terminals: 3 },
    });
  });

  it('another merchant is out of reach for every role', async () => {
    for (const role of roles) {
      const answer = await run(
        role,
        `query($id: ID!) { _entities(representations: [{ __typename: "Merchant", id: $id }]) { ... on Merchant { id name } } }`,
        { id: DEMO.merchantId },
      );
      // The gateway does not expose _entities; the only entry points are viewer and myMerchant.
      expect(codes(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    }
    const posOutlet = await run('owner', `query($id: ID!) { posOutlet(id: $id) { id } }`, { id: DEMO.outlets[0].id });
    expect(codes(posOutlet)).toEqual(['NOT_FOUND']);
    const wrongMerchant = await run('owner', `query($m: ID!) { posOutlets(merchantId: $m) { id } }`, { m: DEMO.merchantId });
    expect(codes(wrongMerchant)).toEqual(['FORBIDDEN']);
  });

  it('transactions and the summary are limited to the outlets (and device) of the member', async () => {
    const window = { from: '2030-01-15T00:00:00Z', to: '2030-01-16T00:00:00Z' };
    const outcome: Record<string, unknown> = {};
    for (const role of roles) {
      const answer = await run(
        role,
        `query($from: DateTime!, $to: DateTime!) { myMerchant {
           transactions(first: 10, from: $from, to: $to) { edges { node { transactionCode } } }
           transactionSummary(from: $from, before: $to) { grossAmount count outletBreakdown { outlet { id } grossAmount count } } } }`,
        window,
      );
      expect(answer.errors).toBeUndefined();
      const m = answer.data.myMerchant;
      outcome[role] = {
        codes: m.transactions.edges.map((e: { node: { transactionCode: string } }) => e.node.transactionCode),
        gross: m.transactionSummary.grossAmount,
        outlets: m.transactionSummary.outletBreakdown.map((o: { outlet: { id: string } }) => o.outlet.id),
      };
    }
    expect(outcome).toEqual({
      owner: { codes: ['RT-4', 'RT-3', 'RT-2', 'RT-1'], gross: 10000, outlets: [petojo, gambir, cideng] },
      admin: { codes: ['RT-3', 'RT-2', 'RT-1'], gross: 6000, outlets: [gambir, cideng] },
      staff: { codes: ['RT-2', 'RT-1'], gross: 3000, outlets: [gambir] },
      staffDevice: { codes: ['RT-1'], gross: 1000, outlets: [gambir] },
      viewer: { codes: ['RT-4'], gross: 4000, outlets: [petojo] },
      viewerAll: { codes: ['RT-4', 'RT-3', 'RT-2', 'RT-1'], gross: 10000, outlets: [petojo, gambir, cideng] },
    });
    const outside = await run('staff', `query($o: ID!) { myMerchant { transactions(first: 5, outletId: $o) { edges { cursor } } } }`, {
      o: cideng,
    });
    expect(codes(outside)).toEqual(['FORBIDDEN']);
  });

  it('the transaction connection pages with cursors and validates its arguments', async () => {
    const page = (after: string | null) =>
      run(
        'owner',
        `query($after: String) { myMerchant { transactions(first: 3, after: $after, from: "2030-01-15T00:00:00Z") { edges { cursor node { transactionCode } } pageInfo { hasNextPage endCursor } } } }`,
        { after },
      );
    const first = (await page(null)).data.myMerchant.transactions;
    expect(first.edges.map((e: any) => e.node.transactionCode)).toEqual(['RT-4', 'RT-3', 'RT-2']);
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: first.edges[2].cursor });
    const second = (await page(first.pageInfo.endCursor)).data.myMerchant.transactions;
    expect(second.edges.map((e: any) => e.node.transactionCode)).toEqual(['RT-1']);
    expect(second.pageInfo.hasNextPage).toBe(false);
    for (const args of ['first: 101', 'first: 0', 'after: "bm9wZQ"', 'status: "weird"']) {
      const answer = await run('owner', `{ myMerchant { transactions(${args}) { edges { cursor } } } }`);
      expect({ args, codes: codes(answer) }).toEqual({ args, codes: ['BAD_USER_INPUT'] });
    }
  });

  /** Each family: who may, who may not (FORBIDDEN, nothing written). */
  it('members: owners manage everyone, admins staff and viewers of their outlets, others nobody', async () => {
    const invite = (role: Role, input: Record<string, unknown>) =>
      run(role, `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id role outletIds user { phone } } }`, { input });
    const list = await Promise.all(roles.map((role) => run(role, `{ myMerchant { members { role } } }`)));
    expect(list.map(codes)).toEqual([[], [], ['FORBIDDEN'], ['FORBIDDEN'], ['FORBIDDEN'], ['FORBIDDEN']]);
    expect(list[0].data.myMerchant.members.length).toBe(6);

    const staffAtGambir = () => ({ phone: `0${freshPhone('55').slice(3)}`, role: 'staff', outletIds: [gambir] });
    expect(codes(await invite('owner', staffAtGambir()))).toEqual([]);
    expect(codes(await invite('admin', staffAtGambir()))).toEqual([]);
    for (const role of ['staff', 'staffDevice', 'viewer', 'viewerAll'] as Role[])
      expect(codes(await invite(role, staffAtGambir()))).toEqual(['FORBIDDEN']);
    expect(codes(await invite('admin', { ...staffAtGambir(), outletIds: [petojo] }))).toEqual(['FORBIDDEN']);
    expect(codes(await invite('admin', { phone: freshPhone('55'), role: 'admin', outletIds: [gambir] }))).toEqual(['FORBIDDEN']);
    expect(codes(await invite('admin', { phone: freshPhone('55'), role: 'viewer', outletIds: [] }))).toEqual(['FORBIDDEN']);
    const [{ count }] = await adminQuery<{ count: string }>(
      stack.database.adminUrl,
      `select count(*) from merchant.merchant_users where merchant_id = $1 and revoked_at is null`,
      [minimarket.id],
    );
    expect(Number(count)).toBe(8);
  });

  it('invites by phone (creating the user once), updates and removes members; a merchant keeps an owner', async () => {
    const phone = freshPhone('66');
    const invited = await run(
      'owner',
      `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id role outletIds terminalId user { id phone } } }`,
      {
        input: { phone: `0${phone.slice(3)}`, role: 'staff', outletIds: [cideng] },
      },
    );
    expect(invited.errors).toBeUndefined();
    const member = invited.data.inviteMember;
    expect(member).toEqual({
      id: expect.any(String),
      role: 'staff',
      outletIds: [cideng],
      terminalId: null,
      user: { id: expect.any(String), phone },
    });
    const again = await run('owner', `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id } }`, {
      input: { phone, role: 'viewer' },
    });
    expect(again.errors?.[0].extensions).toEqual(expect.objectContaining({ code: 'CONFLICT', reason: 'already_member' }));
    for (const input of [
      { phone: '12345', role: 'staff', outletIds: [cideng] },
      { phone: freshPhone('66'), role: 'staff', outletIds: [] },
      { phone: freshPhone('66'), role: 'boss', outletIds: [] },
      { phone: freshPhone('66'), role: 'viewer', outletIds: [], terminalId: gambirTerminal },
    ]) {
      expect(codes(await run('owner', `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id } }`, { input }))).toEqual([
        'BAD_USER_INPUT',
      ]);
    }
    const users = await adminQuery(stack.database.adminUrl, `select id from merchant.users where phone = $1`, [phone]);
    expect(users).toHaveLength(1);

    // The invited member logs in: its role applies at once (new session), and an update applies to its next session.
    const updated = await run(
      'owner',
      `mutation($input: UpdateMemberInput!) { updateMember(input: $input) { role outletIds terminalId } }`,
      {
        input: { memberId: member.id, outletIds: [gambir], terminalId: gambirTerminal },
      },
    );
    expect(updated.data.updateMember).toEqual({ role: 'staff', outletIds: [gambir], terminalId: gambirTerminal });
    const adminUpdatesOutside = await run('admin', `mutation($input: UpdateMemberInput!) { updateMember(input: $input) { role } }`, {
      input: { memberId: member.id, outletIds: [petojo] },
    });
    expect(codes(adminUpdatesOutside)).toEqual(['FORBIDDEN']);
    expect(codes(await run('admin', `mutation($id: ID!) { removeMember(memberId: $id) { id } }`, { id: member.id }))).toEqual([]);
    expect(codes(await run('owner', `mutation($id: ID!) { removeMember(memberId: $id) { id } }`, { id: member.id }))).toEqual([
      'NOT_FOUND',
    ]);

    // The only owner cannot leave nor be demoted.
    const [{ id: ownerMember }] = await adminQuery<{ id: string }>(
      stack.database.adminUrl,
      `select id from merchant.merchant_users where merchant_id = $1 and role = 'owner' and revoked_at is null`,
      [minimarket.id],
    );
    const demote = await run('owner', `mutation($input: UpdateMemberInput!) { updateMember(input: $input) { role } }`, {
      input: { memberId: ownerMember, role: 'admin' },
    });
    expect(demote.errors?.[0].extensions).toEqual(expect.objectContaining({ code: 'CONFLICT', reason: 'last_owner' }));
    const leave = await run('owner', `mutation($id: ID!) { removeMember(memberId: $id) { id } }`, { id: ownerMember });
    expect(leave.errors?.[0].extensions).toEqual(expect.objectContaining({ code: 'CONFLICT', reason: 'last_owner' }));
  });

  it('corporate settings: only owners create and delete outlets; owners and admins update their outlets and the catalog', async () => {
    const create = (role: Role, code: string) =>
      run(role, `mutation($input: CreatePosOutletInput!) { createPosOutlet(input: $input) { id code } }`, {
        input: { code, name: `Outlet ${code}` },
      });
    expect(codes(await create('owner', 'NEW1'))).toEqual([]);
    for (const role of ['admin', 'staff', 'viewer'] as Role[]) expect(codes(await create(role, `NEW-${role}`))).toEqual(['FORBIDDEN']);
    const update = (role: Role, id: string) =>
      run(role, `mutation($id: ID!) { updatePosOutlet(id: $id, input: { name: "Renamed" }) { name } }`, { id });
    expect(codes(await update('owner', petojo))).toEqual([]);
    expect(codes(await update('admin', gambir))).toEqual([]);
    expect(codes(await update('admin', petojo))).toEqual(['FORBIDDEN']);
    expect(codes(await update('staff', gambir))).toEqual(['FORBIDDEN']);
    expect(codes(await update('viewer', petojo))).toEqual(['FORBIDDEN']);
    const category = (role: Role) => run(role, `mutation { createPosCategory(input: { name: "Cat ${role}" }) { id } }`);
    expect((await Promise.all((['owner', 'admin', 'staff', 'viewer'] as Role[]).map(category))).map(codes)).toEqual([
      [],
      [],
      ['FORBIDDEN'],
      ['FORBIDDEN'],
    ]);
    const posOutlets = await run('staff', `{ posOutlets { id } }`);
    expect(posOutlets.data.posOutlets).toEqual([{ id: gambir }]);
    expect(codes(await run('staff', `query($id: ID!) { posOutlet(id: $id) { id } }`, { id: petojo }))).toEqual(['FORBIDDEN']);
  });

  it("the cashier's writes: owners, admins and staff push sales; viewers are read-only", async () => {
    const push = (role: Role) => run(role, `mutation { pushPosChanges(items: []) { accepted } }`);
    const answers = await Promise.all((['owner', 'admin', 'staff', 'viewer', 'viewerAll'] as Role[]).map(push));
    expect(answers.map(codes)).toEqual([[], [], [], ['FORBIDDEN'], ['FORBIDDEN']]);
    const orders = await run('admin', `{ posSalesOrders { id } }`);
    expect(codes(orders)).toEqual(['FORBIDDEN']);
    expect(codes(await run('admin', `query($o: ID!) { posSalesOrders(outletId: $o) { id } }`, { o: cideng }))).toEqual([]);
    expect(codes(await run('staff', `{ posSalesOrders { id } }`))).toEqual([]);
  });

  it("consent: only the owner grants and revokes, and the partner API's scope follows at once", async () => {
    const warung = DEMO.otherMerchants[0];
    const owner = (await memberHeaders(stack, warung.id, 'owner')).headers;
    const admin = (await memberHeaders(stack, warung.id, 'admin')).headers;
    const { contractB } = DEMO.partner.credentials;
    const tokenRes = await stack.rest.inject({
      method: 'POST',
      url: '/api/partner/v1/auth/token',
      payload: { credential_key: contractB.credentialKey, credential_secret: contractB.secret },
    });
    const partnerGet = () =>
      stack.rest.inject({
        method: 'GET',
        url: `/api/partner/v1/merchants/${warung.id}/transactions`,
        headers: { authorization: `Bearer ${tokenRes.json().access_token}` },
      });
    expect((await partnerGet()).statusCode).toBe(403);

    expect(codes(await gql(stack, `mutation { grantPartnerConsent(partnerCode: "PDEMO") { partnerCode } }`, {}, admin))).toEqual([
      'FORBIDDEN',
    ]);
    const granted = await gql(
      stack,
      `mutation { grantPartnerConsent(partnerCode: "pdemo") { partnerCode partnerName grantedAt } }`,
      {},
      owner,
    );
    expect(granted.data.grantPartnerConsent).toEqual({
      partnerCode: DEMO.partner.code,
      partnerName: DEMO.partner.name,
      grantedAt: expect.any(String),
    });
    const twice = await gql(stack, `mutation { grantPartnerConsent(partnerCode: "PDEMO") { grantedAt } }`, {}, owner);
    expect(twice.data.grantPartnerConsent.grantedAt).toBe(granted.data.grantPartnerConsent.grantedAt);
    expect((await partnerGet()).statusCode).toBe(200);
    const listed = await gql(stack, `{ myMerchant { partnerConsents { partnerCode } } }`, {}, owner);
    expect(listed.data.myMerchant.partnerConsents).toEqual([{ partnerCode: DEMO.partner.code }]);
    expect(codes(await gql(stack, `mutation { grantPartnerConsent(partnerCode: "NOPE") { partnerCode } }`, {}, owner))).toEqual([
      'NOT_FOUND',
    ]);

    expect(codes(await gql(stack, `mutation { revokePartnerConsent(partnerCode: "PDEMO") }`, {}, admin))).toEqual(['FORBIDDEN']);
    const revoked = await gql(stack, `mutation { revokePartnerConsent(partnerCode: "PDEMO") }`, {}, owner);
    expect(revoked.data.revokePartnerConsent).toBe(true);
    expect((await partnerGet()).statusCode).toBe(403);
    const again = await gql(stack, `mutation { revokePartnerConsent(partnerCode: "PDEMO") }`, {}, owner);
    expect(again.data.revokePartnerConsent).toBe(false);
    const rows = await adminQuery(
      stack.database.adminUrl,
      `select revoked_at from merchant.partner_merchant_access where merchant_id = $1 and access_type = 'consent'`,
      [warung.id],
    );
    expect(rows).toHaveLength(1);
  });

  it('documents are posted as JSON bodies (a body without a query is a client error)', async () => {
    const answer = await postGraphQL(stack, { variables: {} }, as.owner);
    expect(answer.status).toBe(400);
  });
});
