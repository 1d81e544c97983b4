import { Client } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { DEMO } from '@lib/domain/demo/demo-ids';
import type { SubgraphName } from '@lib/config/config';
import { postDemoBankEvent } from '../support/bank-events';
import { eventually } from '../support/eventually';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * The transaction subgraph's copy of what payment events resolve to (docs/decisions/0028-payment-event-and-settlement-intake.md):
 * kept from the outlet and merchant subgraphs' jobs by statement triggers that see every write path, read by event
 * intake in one subgraph fetch, and never the reason an event goes unresolved.
 */
describe('payment targets copy (transaction.payment_targets)', () => {
  let stack: TestStack;
  const [pusat, menteng] = DEMO.outlets;
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    adminQuery(stack.database.adminUrl, text, params) as Promise<T[]>;
  const graphqlCalls = (subgraph: SubgraphName) => stack.restFetches(subgraph);
  /** Graph calls to the owners (outlet, merchant) while `run` runs. */
  const ownerCalls = async (run: () => Promise<unknown>) => {
    const before = [await graphqlCalls('outlet'), await graphqlCalls('merchant')];
    await run();
    return [(await graphqlCalls('outlet')) - before[0], (await graphqlCalls('merchant')) - before[1]];
  };
  const jobsDrained = () =>
    eventually('payment target jobs did not drain', async () => {
      const [{ n }] = await sql<{ n: string }>(
        `select count(*) as n from graphile_worker.jobs where task_identifier like 'payment_target_%' or task_identifier = 'merchant_profiles'`,
      );
      return n === '0' ? true : undefined;
    });
  /** The copy as the owners would build it now, and the copy itself: the same rows once the jobs ran. */
  const ownersAndCopy = async () => {
    await jobsDrained();
    const owners = await sql(
      `select o.nmid, o.merchant_id, o.id as outlet_id, o.mid, o.nmid_status, o.nmid_bank_code,
              (select coalesce(jsonb_object_agg(t.tid, t.id) filter (where t.tid is not null), '{}') from outlet.terminals t where t.outlet_id = o.id) as terminals,
              (select count(*)::int from outlet.outlets l where l.merchant_id = o.merchant_id and l.deleted_at is null) as live_outlets,
              m.bank_id, b.code as bank_code, m.psp_visible_at, m.status, m.category_code
         from outlet.outlets o join merchant.merchants m on m.id = o.merchant_id left join merchant.banks b on b.id = m.bank_id
        where o.nmid is not null and o.deleted_at is null order by o.nmid`,
    );
    const copy = await sql(
      `select t.nmid, t.merchant_id, t.outlet_id, t.mid, t.nmid_status, t.nmid_bank_code, t.terminals, s.live_outlets,
              m.bank_id, m.bank_code, m.psp_visible_at, m.status, m.category_code
         from "transaction".payment_targets t
         join "transaction".payment_target_outlet_sets s using (merchant_id)
         join "transaction".payment_target_merchants m using (merchant_id)
        order by t.nmid`,
    );
    return { owners, copy };
  };
  const transactionOf = async (externalEventId: string) =>
    (
      await sql(
        `select t.outlet_id, t.terminal_id, t.merchant_id from "transaction".payment_events e
           join "transaction".transactions t on t.id = e.transaction_id where e.external_event_id = $1`,
        [externalEventId],
      )
    )[0];
  let seq = 0;
  const payment = (over: Record<string, unknown> = {}) => {
    seq += 1;
    const id = `ptc-${seq}-${uuidv7()}`;
    return {
      id,
      send: () => postDemoBankEvent(stack, { external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: 21000, ...over }),
    };
  };

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  it('holds every live NMID as the owners resolve it, from the migration and the demo seed', async () => {
    const { owners, copy } = await ownersAndCopy();
    expect(owners.length).toBeGreaterThan(2);
    expect(copy).toEqual(owners);
  });

  it('records an event without asking the outlet or merchant subgraph, with the outlet and terminal the owners name', async () => {
    await ownersAndCopy();
    // The first signed request of a key reads the bank's credential from the merchant subgraph (then cached).
    expect((await payment().send()).statusCode).toBe(200);
    const event = payment({ nmid: menteng.nmid, tid: 'TDEMO0002' });
    let res;
    expect(await ownerCalls(async () => (res = await event.send()))).toEqual([0, 0]);
    expect(res!.statusCode).toBe(200);
    expect(res!.json()).toMatchObject({ status: 'success', merchant_id: DEMO.merchantId, outlet_id: menteng.id });
    const [{ id: terminalId }] = await sql<{ id: string }>(`select id from outlet.terminals where tid = 'TDEMO0002'`);
    expect(await transactionOf(event.id)).toEqual({ merchant_id: DEMO.merchantId, outlet_id: menteng.id, terminal_id: terminalId });
  });

  it('follows the owners’ changes, whatever wrote them: a new terminal, a suspended NMID, a merchant’s status', async () => {
    const terminalId = uuidv7();
    await sql(
      `insert into outlet.terminals (id, merchant_id, outlet_id, tid, status, created_at, updated_at)
       values ($1, $2, $3, 'TPTC0001', 'online', now(), now())`,
      [terminalId, DEMO.merchantId, pusat.id],
    );
    let { owners, copy } = await ownersAndCopy();
    expect(copy).toEqual(owners);
    // A heartbeat is not a change of what events resolve to: no new set.
    const setVersion = async () =>
      (await sql(`select version from "transaction".payment_target_outlet_sets where merchant_id = $1`, [DEMO.merchantId]))[0].version;
    const before = await setVersion();
    await sql(`update outlet.terminals set last_seen_at = now(), status = 'offline' where id = $1`, [terminalId]);
    await ownersAndCopy();
    expect(await setVersion()).toBe(before);
    const withNewTerminal = payment({ nmid: pusat.nmid, tid: 'TPTC0001' });
    expect(await ownerCalls(async () => expect((await withNewTerminal.send()).statusCode).toBe(200))).toEqual([0, 0]);
    expect(await transactionOf(withNewTerminal.id)).toMatchObject({ terminal_id: terminalId });

    await sql(`update outlet.outlets set nmid_status = 'suspended' where id = $1`, [pusat.id]);
    ({ owners, copy } = await ownersAndCopy());
    expect(copy).toEqual(owners);
    const suspended = await payment({ nmid: pusat.nmid }).send();
    expect([suspended.statusCode, suspended.json().code]).toEqual([422, 'nmid_suspended']);
    await sql(`update outlet.outlets set nmid_status = 'active' where id = $1`, [pusat.id]);

    await sql(`update merchant.merchants set status = 'suspended' where id = $1`, [DEMO.merchantId]);
    ({ owners, copy } = await ownersAndCopy());
    expect(copy).toEqual(owners);
    const inactive = await payment({ nmid: pusat.nmid }).send();
    expect([inactive.statusCode, inactive.json().code]).toEqual([422, 'merchant_not_active']);
    await sql(`update merchant.merchants set status = 'active' where id = $1`, [DEMO.merchantId]);
    expect((await ownersAndCopy()).copy).toEqual((await ownersAndCopy()).owners);
  });

  it('drops an NMID whose outlet is deleted, and keeps the merchant’s live outlet count', async () => {
    const outletId = uuidv7();
    await sql(
      `insert into outlet.outlets (id, merchant_id, code, name, nmid, mid, nmid_status, nmid_bank_code, created_at, updated_at)
       select $1, merchant_id, 'PTC', 'Cabang PTC', 'ID1026120400001', 'MID-PTC', 'active', nmid_bank_code, now(), now()
         from outlet.outlets where id = $2`,
      [outletId, pusat.id],
    );
    let { owners, copy } = await ownersAndCopy();
    expect(copy).toEqual(owners);
    expect(copy.find((row) => row.nmid === 'ID1026120400001')).toMatchObject({ outlet_id: outletId, live_outlets: 3 });
    await sql(`update outlet.outlets set deleted_at = now() where id = $1`, [outletId]);
    ({ owners, copy } = await ownersAndCopy());
    expect(copy).toEqual(owners);
    expect(copy.find((row) => row.nmid === 'ID1026120400001')).toBeUndefined();
    expect(copy.find((row) => row.nmid === pusat.nmid)).toMatchObject({ live_outlets: 2 });
  });

  it('asks the owners for what the copy lacks: an NMID it does not hold, a TID it does not know, an unknown NMID', async () => {
    await ownersAndCopy();
    await sql(`delete from "transaction".payment_targets where nmid = $1`, [menteng.nmid]);
    const missing = payment({ nmid: menteng.nmid });
    let res;
    expect(await ownerCalls(async () => (res = await missing.send()))).toEqual([1, 0]);
    expect([res!.statusCode, res!.json().merchant_id]).toEqual([200, DEMO.merchantId]);

    await sql(`update "transaction".payment_targets set terminals = '{}' where nmid = $1`, [pusat.nmid]);
    const unknownTid = payment({ nmid: pusat.nmid, tid: 'TDEMO0001' });
    expect(await ownerCalls(async () => expect((await unknownTid.send()).statusCode).toBe(200))).toEqual([1, 0]);
    const [{ id: terminalId }] = await sql<{ id: string }>(`select id from outlet.terminals where tid = 'TDEMO0001'`);
    expect(await transactionOf(unknownTid.id)).toMatchObject({ outlet_id: pusat.id, terminal_id: terminalId });

    const unknown = await payment({ nmid: 'ID1026120499999' }).send();
    expect([unknown.statusCode, unknown.json().code]).toEqual([422, 'unknown_nmid']);
  });

  it('orders concurrent changes of one merchant: the set computed last saw both', async () => {
    const clients = [new Client({ connectionString: stack.database.adminUrl }), new Client({ connectionString: stack.database.adminUrl })];
    await Promise.all(clients.map((c) => c.connect()));
    try {
      const [a, b] = clients;
      await a.query('begin');
      await a.query(`update outlet.outlets set mid = 'MID-CONCURRENT' where id = $1`, [menteng.id]);
      await b.query('begin');
      // Waits in its trigger for `a`'s lock on the merchant, then computes the set with `a`'s change committed.
      const inserting = b.query(
        `insert into outlet.terminals (id, merchant_id, outlet_id, tid, status, created_at, updated_at)
         values ($1, $2, $3, 'TPTC0002', 'online', now(), now())`,
        [uuidv7(), DEMO.merchantId, menteng.id],
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await a.query('commit');
      await inserting;
      await b.query('commit');
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    const { owners, copy } = await ownersAndCopy();
    expect(copy).toEqual(owners);
    expect(copy.find((row) => row.nmid === menteng.nmid)).toMatchObject({
      mid: 'MID-CONCURRENT',
      terminals: expect.objectContaining({ TPTC0002: expect.any(String) }),
    });
  });
});
