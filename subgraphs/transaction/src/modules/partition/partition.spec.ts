import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';
import { ensurePartitions } from './partition.service';
import { partitionTestKit } from './partition-test-kit';

const BANK = 'BPART';

/**
 * Monthly partitions of transactions and payment events (docs/decisions/0208-partitioned-history.md) on a real
 * database: created ahead and idempotently, rows of a new month taken over from the catch-alls, and the all-time
 * uniqueness rules of psp-api.md across months.
 */
describe('monthly partitions (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  const { fork, sql, partitionOf, names, merchantId, event, record } = partitionTestKit(() => orm, {
    bank: BANK,
    tag: 'part',
    nmid: 'ID1026112299001',
    grossAmount: 50_000,
  });

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(transactionSubgraph, loadConfig({ DATABASE_URL: database.adminUrl, DB_POOL_MAX: '20' }));
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });

  it('has the month of the migration and three ahead, between the two catch-alls', async () => {
    // The template database was migrated when the run began, which may be the Jakarta month before the test's.
    const [row] = await sql<{ at: Date }>(`select max(executed_at) as at from "transaction".mikro_orm_migrations`);
    const at = new Date(row.at);
    const month = (offset: number) => {
      const jakarta = new Date(at.getTime() + 7 * 3600_000);
      const d = new Date(Date.UTC(jakarta.getUTCFullYear(), jakarta.getUTCMonth() + offset, 1));
      return `${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    };
    for (const table of ['transactions', 'payment_events']) {
      const list = await names(table);
      expect(list[0]).toBe(`${table}_history`);
      expect(list.at(-1)).toBe(`${table}_future`);
      for (const offset of [0, 1, 2, 3]) expect(list).toContain(`${table}_p${month(offset)}`);
    }
    // Nothing to do: the months are there.
    expect(await ensurePartitions(fork(), 3, { now: at })).toEqual({ created: [] });
  });

  it('creates months ahead idempotently, and a new month takes over the rows the future catch-all held of it', async () => {
    // A bank's transaction in May of the year after the last partition lands in the future catch-all.
    const year = Number((await names('transactions')).at(-2)!.slice('transactions_p'.length, -3)) + 1;
    const ahead = await record(event({ transactionAt: new Date(`${year}-05-15T03:00:00Z`) }));
    expect(ahead.status).toBe('success');
    expect(await partitionOf('transactions', ahead.transactionId!)).toBe('transaction.transactions_future');

    const now = new Date(`${year}-02-10T00:00:00Z`);
    const first = await ensurePartitions(fork(), 3, { now });
    const created = first.created.filter((c) => c.table === 'transactions');
    expect(created.at(-1)).toEqual({ table: 'transactions', partition: `transactions_p${year}_05`, moved_rows: 1 });
    expect(created.filter((c) => c.partition !== `transactions_p${year}_05` && c.moved_rows !== 0)).toEqual([]);
    expect(first.created.filter((c) => c.table === 'payment_events').at(-1)).toMatchObject({ partition: `payment_events_p${year}_05` });
    expect(await partitionOf('transactions', ahead.transactionId!)).toBe(`transaction.transactions_p${year}_05`);
    expect((await names('transactions')).at(-1)).toBe('transactions_future');
    // Idempotent, also when several processes run it at once.
    const again = await Promise.all([1, 2, 3].map(() => ensurePartitions(fork(), 3, { now })));
    expect(again).toEqual([{ created: [] }, { created: [] }, { created: [] }]);
    // The moved row is whole (its code still claimed by it, its rollup trigger and indexes in place).
    const [row] = await sql('select gross_amount, status from "transaction".transactions where id = ?', [ahead.transactionId]);
    expect(row).toMatchObject({ gross_amount: '50000', status: 'success' });
  });

  it('creates months back to --from, taking over the rows the history catch-all held of them', async () => {
    // Months before the template's first partition (its demo history's first month, late 2025), a few of them: each month
    // created is two partitions with their indexes.
    const old = await record(event({ transactionAt: new Date('2025-03-20T12:00:00Z') }));
    const older = await record(event({ transactionAt: new Date('2024-07-01T00:00:00Z') }));
    expect(await partitionOf('transactions', old.transactionId!)).toBe('transaction.transactions_history');
    const result = await ensurePartitions(fork(), 3, { from: new Date('2025-01-05T00:00:00Z') });
    expect(result.created).toContainEqual({ table: 'transactions', partition: 'transactions_p2025_03', moved_rows: 1 });
    expect(result.created).toContainEqual({ table: 'transactions', partition: 'transactions_p2025_01', moved_rows: 0 });
    expect(await partitionOf('transactions', old.transactionId!)).toBe('transaction.transactions_p2025_03');
    expect(await partitionOf('transactions', older.transactionId!)).toBe('transaction.transactions_history');
    expect((await names('transactions')).slice(0, 2)).toEqual(['transactions_history', 'transactions_p2025_01']);
    // A month is at the Asia/Jakarta month's start: 2025-01-31T17:00Z is February in Jakarta.
    const [bound] = await sql<{ b: string }>(
      `select pg_get_expr(c.relpartbound, c.oid) as b from pg_class c where c.relname = 'transactions_p2025_02'`,
    );
    expect(bound.b).toMatch(/FROM \('2025-01-31 17:00:00\+00'\) TO \('2025-02-28 17:00:00\+00'\)/);
  });

  it('answers a repeated external_event_id duplicate_skipped and rejects a repeated transaction_code, across months', async () => {
    // An event received in an old month (written as the intake would have then) and its transaction, also old.
    const eventId = uuidv7();
    const transactionId = uuidv7();
    const code = `TRX-OLD-${uuidv7()}`;
    await sql(
      `insert into "transaction".transactions (id, merchant_id, bank_code, transaction_code, status, gross_amount, transaction_at,
                                               created_at, updated_at, net_amount_after_mdr)
       values (?, ?, ?, ?, 'success', 70000, '2025-01-10T02:00:00Z', '2025-01-10T02:00:00Z', '2025-01-10T02:00:00Z', 70000)`,
      [transactionId, merchantId, BANK, code],
    );
    await sql(
      `insert into "transaction".payment_events (id, bank_code, external_event_id, event_type, payload, nmid, merchant_id,
                                                 transaction_id, status, flow, applied, received_at)
       values (?, ?, 'EVT-OLD-1', 'transaction.success', '{}', 'ID1026112299001', ?, ?, 'success', 'transaction.created', true,
               '2025-01-10T02:00:01Z')`,
      [eventId, BANK, merchantId, transactionId],
    );
    const replay = await record(event({ externalEventId: 'EVT-OLD-1', transactionCode: code }));
    expect(replay).toMatchObject({ eventId, status: 'duplicate_skipped', transactionId });

    const reused = await record(event({ transactionCode: code }));
    expect(reused).toMatchObject({ status: 'rejected', errorCode: 'duplicate_transaction_code', transactionId: null });
    expect(await sql('select count(*)::int as n from "transaction".transactions where transaction_code = ?', [code])).toEqual([{ n: 1 }]);

    // A refund of this month finds the original of an old month by its code (through the key table).
    const refund = await record(event({ eventType: 'transaction.refunded', transactionCode: code, grossAmount: 20_000 }));
    expect(refund).toMatchObject({ status: 'success', transactionId });
    expect((await sql('select refunded_amount from "transaction".transactions where id = ?', [transactionId]))[0].refunded_amount).toBe(
      '20000',
    );

    // Any other write path is held to the same rules by the tables' guard triggers.
    const direct = sql(
      `insert into "transaction".transactions (id, merchant_id, bank_code, transaction_code, status, gross_amount, transaction_at,
                                               created_at, updated_at, net_amount_after_mdr)
       values (?, ?, ?, ?, 'success', 1000, now(), now(), now(), 1000)`,
      [uuidv7(), merchantId, BANK, code],
    );
    await expect(direct).rejects.toMatchObject({ code: '23505', constraint: 'transaction_codes_pkey' });
    const directEvent = sql(
      `insert into "transaction".payment_events (id, bank_code, external_event_id, event_type, payload, nmid, status, flow, applied, received_at)
       values (?, ?, 'EVT-OLD-1', 'transaction.success', '{}', 'ID1026112299001', 'success', 'transaction.created', true, now())`,
      [uuidv7(), BANK],
    );
    await expect(directEvent).rejects.toMatchObject({ code: '23505', constraint: 'payment_event_keys_pkey' });
    // The first delivery of an event is never rewritten (its key row names its partition).
    await expect(sql(`update "transaction".payment_events set received_at = now() where id = ?`, [eventId])).rejects.toMatchObject({
      code: '23000',
    });
  });

  it('keeps one event and one transaction for concurrent identical deliveries', async () => {
    const input = event({ transactionAt: new Date('2024-02-29T23:00:00Z') });
    const answers = await Promise.all(Array.from({ length: 12 }, () => record(input)));
    expect(answers.filter((a) => a.status === 'success')).toHaveLength(1);
    expect(answers.filter((a) => a.status === 'duplicate_skipped')).toHaveLength(11);
    expect(new Set(answers.map((a) => a.eventId)).size).toBe(1);
    const [counts] = await sql<{ events: number; keys: number; transactions: number; codes: number }>(
      `select (select count(*) from "transaction".payment_events where bank_code = ? and external_event_id = ?)::int as events,
              (select count(*) from "transaction".payment_event_keys where bank_code = ? and external_event_id = ?)::int as keys,
              (select count(*) from "transaction".transactions where bank_code = ? and transaction_code = ?)::int as transactions,
              (select count(*) from "transaction".transaction_codes where bank_code = ? and transaction_code = ?)::int as codes`,
      [BANK, input.externalEventId, BANK, input.externalEventId, BANK, input.transactionCode, BANK, input.transactionCode],
    );
    expect(counts).toEqual({ events: 1, keys: 1, transactions: 1, codes: 1 });
  });

  it('keeps the key row on the transaction’s partition when its time changes', async () => {
    const done = await record(event());
    await sql(`update "transaction".transactions set transaction_at = '2025-03-02T00:00:00Z' where id = ?`, [done.transactionId]);
    expect(await partitionOf('transactions', done.transactionId!)).toBe('transaction.transactions_p2025_03');
    const [key] = await sql<{ at: Date }>('select transaction_at as at from "transaction".transaction_codes where transaction_id = ?', [
      done.transactionId,
    ]);
    expect(new Date(key.at).toISOString()).toBe('2025-03-02T00:00:00.000Z');
  });
});
