import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '@lib/config/config';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { runOps } from '@scripts/ops';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';
import { PaymentFeedRepository } from '@subgraphs/transaction/src/modules/payment-feed/payment-feed.repository';
import { type TestDatabase, adminQuery, cloneTemplateDatabase } from '@test/support/test-database';

/** `ops feed:prune` (the transaction process runs the same pruning hourly) and `ops qris:unmatched`, on a real database. */
describe('payment feed retention and unmatched payments (ops)', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const sql = <T extends object = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(db.adminUrl, text, params);
  const ops = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runOps(argv, env, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
    return { code, out: stdout ? JSON.parse(stdout).result : null, err: stderr };
  };
  /** `n` feed rows created `ageHours` ago. */
  const feedRows = (n: number, ageHours: number) =>
    sql(
      `insert into "transaction".payment_feed (kind, merchant_id, outlet_id, transaction_id, transaction_code, bank_code, nmid, amount,
         transaction_at, created_at)
       select 'transaction.success', $1, $1, gen_random_uuid(), 'TRX-' || g, 'DEMO', 'ID1', 1000, now(), now() - make_interval(hours => $2)
       from generate_series(1, $3) g`,
      [randomUUID(), ageHours, n],
    );
  const count = async (where = 'true') =>
    (await sql<{ n: number }>(`select count(*)::int as n from "transaction".payment_feed where ${where}`))[0].n;

  beforeAll(async () => {
    db = await cloneTemplateDatabase();
    env = { ...process.env, DATABASE_URL: db.adminUrl, NODE_ENV: 'development' };
  });
  afterAll(() => db?.drop());

  it('reads the feed in numeric id order across a digit boundary (9 → 10), for every merchant and for one', async () => {
    const config = loadConfig(env);
    const orm = await openSubgraphOrm(transactionSubgraph, config, db.adminUrl);
    const merchant = randomUUID();
    try {
      const [{ head }] = await sql<{ head: string }>(`select coalesce(max(id), 0)::text as head from "transaction".payment_feed`);
      // Ids are text on the wire: sorted by that text, "10" would come before "9" and a reader would skip rows.
      await sql(`select setval(pg_get_serial_sequence('"transaction".payment_feed', 'id'), greatest($1::bigint, 1))`, [head]);
      await sql(
        `insert into "transaction".payment_feed (kind, merchant_id, outlet_id, transaction_id, transaction_code, bank_code, nmid, amount,
           transaction_at) select 'transaction.success', $1, $1, gen_random_uuid(), 'ORD-' || g, 'DEMO', 'ID1', 1000, now()
         from generate_series(1, 15) g`,
        [merchant],
      );
      const repo = new PaymentFeedRepository(orm.em.fork());
      const numeric = (rows: { id: string }[]) => rows.map((r) => BigInt(r.id)).every((id, i, all) => i === 0 || all[i - 1] < id);
      const all = await repo.afterAll(head, 100, 86_400);
      const mine = await repo.after(merchant, head, 100, 86_400);
      expect(all.length).toBeGreaterThanOrEqual(15);
      expect(numeric(all)).toBe(true);
      expect(mine).toHaveLength(15);
      expect(numeric(mine)).toBe(true);
    } finally {
      await orm.close();
      await sql(`delete from "transaction".payment_feed where merchant_id = $1`, [merchant]);
    }
  });

  it('deletes rows older than the retention in batches, keeps the newer ones and settled outbox rows only', async () => {
    await feedRows(12_000, 24 * 8); // past the default 7 days: three batches of 5,000
    await feedRows(3, 24 * 6);
    await feedRows(2, 1);
    await sql(
      `insert into "transaction".sales_order_settlements (qris_payment_id, merchant_id, outlet_id, sales_order_id, amount, transaction_id,
         paid_at, settled_at, outcome)
       values (gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 1, gen_random_uuid(), now(), now() - interval '8 days', 'applied'),
              (gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 1, gen_random_uuid(), now(), null, null)`,
    );
    const before = await count();
    const pruned = await ops(['feed:prune']);
    expect(pruned).toMatchObject({ code: 0, out: { feed_rows: 12_000, settlements: 1, skipped: false } });
    expect(await count()).toBe(before - 12_000);
    expect(await count(`created_at < now() - interval '7 days'`)).toBe(0);
    expect(await sql(`select count(*)::int as n from "transaction".sales_order_settlements where settled_at is null`)).toEqual([{ n: 1 }]);
    // Again: nothing left to do. A shorter retention given on the command line.
    expect((await ops(['feed:prune'])).out).toEqual({ feed_rows: 0, settlements: 0, skipped: false });
    expect((await ops(['feed:prune', '--days', '5'])).out).toMatchObject({ feed_rows: 3 });
    expect((await ops(['feed:prune', '--days', '1'])).code).toBe(1);
  });

  it('one copy prunes at a time: a copy that finds the lock taken stops, and concurrent runs delete each row once', async () => {
    // Ids follow creation (as the intake appends them): the pruner deletes the rows before the first young one.
    await sql(`delete from "transaction".payment_feed`);
    await feedRows(50, 24 * 10);
    await feedRows(1, 1);
    const holder = new Client({ connectionString: db.adminUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`select pg_advisory_xact_lock(hashtext('transaction.payment_feed.prune'))`);
      expect((await ops(['feed:prune'])).out).toEqual({ feed_rows: 0, settlements: 0, skipped: true });
      await holder.query('commit');
    } finally {
      await holder.end();
    }
    const runs = await Promise.all([ops(['feed:prune']), ops(['feed:prune']), ops(['feed:prune'])]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    // Whichever got the lock deleted them; the others found it taken (skipped) or nothing left.
    expect(runs.map((r) => r.out.feed_rows as number).sort((x, y) => y - x)).toEqual([50, 0, 0]);
    expect(await count(`created_at < now() - interval '7 days'`)).toBe(0);
  });

  it('qris:unmatched lists unmatched payments newest first with filters and keyset pages', async () => {
    const merchant = randomUUID();
    const outlet = randomUUID();
    const reasons = ['amount_mismatch', 'expired', 'amount_mismatch', 'cancelled', 'unknown_bill_number'];
    for (const [i, reason] of reasons.entries()) {
      await sql(
        `insert into "transaction".qris_unmatched_payments (id, payment_event_id, bank_code, nmid, merchant_id, outlet_id, bill_number,
           gross_amount, reason, transaction_at, created_at)
         values ($1, gen_random_uuid(), 'DEMO', 'ID1', $2, $3, $4, $5, $6, $7, now())`,
        [
          `019b0000-0000-7000-8000-00000000000${i}`,
          merchant,
          i === 4 ? null : outlet,
          `QR0000000000000${i}`,
          1000 + i,
          reason,
          new Date(Date.parse('2026-11-20T00:00:00Z') + i * 3_600_000),
        ],
      );
    }
    const all = await ops(['qris:unmatched', '--merchant', merchant]);
    expect(all.out.items.map((r: { grossAmount: number }) => r.grossAmount)).toEqual([1004, 1003, 1002, 1001, 1000]);
    const mismatch = await ops(['qris:unmatched', '--merchant', merchant, '--reason', 'amount_mismatch']);
    expect(mismatch.out.items.map((r: { billNumber: string }) => r.billNumber)).toEqual(['QR00000000000002', 'QR00000000000000']);
    const byOutletAndTime = await ops([
      'qris:unmatched',
      '--outlet',
      outlet,
      '--from',
      '2026-11-20T01:00:00Z',
      '--before',
      '2026-11-20T03:00:00Z',
    ]);
    expect(byOutletAndTime.out.items.map((r: { reason: string }) => r.reason)).toEqual(['amount_mismatch', 'expired']);
    const first = await ops(['qris:unmatched', '--merchant', merchant, '--limit', '2']);
    expect(first.out.items).toHaveLength(2);
    const second = await ops(['qris:unmatched', '--merchant', merchant, '--limit', '2', '--after', first.out.next_cursor]);
    const third = await ops(['qris:unmatched', '--merchant', merchant, '--limit', '2', '--after', second.out.next_cursor]);
    expect([...first.out.items, ...second.out.items, ...third.out.items].map((r: { grossAmount: number }) => r.grossAmount)).toEqual([
      1004, 1003, 1002, 1001, 1000,
    ]);
    expect(third.out.next_cursor).toBeNull();
    expect((await ops(['qris:unmatched', '--reason', 'nope'])).code).toBe(2);
  });
});
