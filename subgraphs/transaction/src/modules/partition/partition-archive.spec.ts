import { Client } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '@lib/config/config';
import { ensureArchiveSchema } from '@lib/db/bootstrap';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, adminQuery, cloneTemplateDatabase } from '@test/support/test-database';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';
import { PaymentEventService } from '../payment-event/payment-event.service';
import { ARCHIVE_SCHEMA } from './partition.repository';
import { partitionTestKit } from './partition-test-kit';
import {
  ArchiveRefusedError,
  archivePartitions,
  ensurePartitions,
  latestArchiveBefore,
  listArchived,
  listPartitions,
} from './partition.service';

const BANK = 'BARCH';
const silent = { warn: () => undefined };

/**
 * `ops partitions:archive` on a real database (docs/decisions/0208-partitioned-history.md): old months move to the
 * `archive` schema, the history catch-all takes their range over, and the keys they leave behind still answer replays.
 */
describe('archiving months (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  const { fork, sql, partitionOf, names, merchantId, event, record } = partitionTestKit(() => orm, {
    bank: BANK,
    tag: 'arch',
    nmid: 'ID1026112299002',
    grossAmount: 40_000,
  });
  const layout = async () => (await listPartitions(fork())).map((p) => `${p.partition} ${p.bounds}`);
  const historyBound = async (table: string) => (await listPartitions(fork())).find((p) => p.partition === `${table}_history`)!.bounds;
  const service = () => new PaymentEventService(fork());

  /** An event received in an old month with its transaction, written as the intake wrote them then. */
  const oldDelivery = async (externalEventId: string, receivedAt: string, status: 'success' | 'rejected' = 'success') => {
    const eventId = uuidv7();
    const transactionId = status === 'success' ? uuidv7() : null;
    const code = `TRX-OLD-${uuidv7()}`;
    if (transactionId)
      await sql(
        `insert into "transaction".transactions (id, merchant_id, bank_code, transaction_code, status, gross_amount, transaction_at,
                                                 created_at, updated_at, net_amount_after_mdr)
         values (?, ?, ?, ?, 'success', 70000, ?, ?, ?, 70000)`,
        [transactionId, merchantId, BANK, code, receivedAt, receivedAt, receivedAt],
      );
    await sql(
      `insert into "transaction".payment_events (id, bank_code, external_event_id, event_type, payload, nmid, merchant_id,
                                                 transaction_id, status, flow, error_code, applied, received_at)
       values (?, ?, ?, 'transaction.success', '{}', 'ID1026112299002', ?, ?, ?, ?, ?, true, ?)`,
      [
        eventId,
        BANK,
        externalEventId,
        merchantId,
        transactionId,
        status,
        status === 'success' ? 'transaction.created' : 'recorded_unapplied',
        status === 'success' ? null : 'merchant_not_active',
        receivedAt,
      ],
    );
    return { eventId, transactionId, code };
  };

  let before: string[];
  let archivedTransaction: string;
  let olderTransaction: string;
  let success: Awaited<ReturnType<typeof oldDelivery>>;
  let rejected: Awaited<ReturnType<typeof oldDelivery>>;

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(transactionSubgraph, loadConfig({ DATABASE_URL: database.adminUrl, DB_POOL_MAX: '20' }));
    // Months of 2024 before the template's first partition (its demo history's, late 2025): a few dozen partitions to create.
    await ensurePartitions(fork(), 3, { from: new Date('2024-01-05T00:00:00Z') });
    archivedTransaction = (await record(event({ transactionAt: new Date('2024-02-10T05:00:00Z') }))).transactionId!;
    olderTransaction = (await record(event({ transactionAt: new Date('2023-05-01T00:00:00Z') }))).transactionId!;
    success = await oldDelivery('EVT-ARCH-SUCCESS', '2024-03-04T02:00:00Z');
    rejected = await oldDelivery('EVT-ARCH-REJECTED', '2024-04-04T02:00:00Z', 'rejected');
    before = await layout();
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });

  it('refuses a month of the last twelve, the current one, one ahead or a malformed one, and changes nothing', async () => {
    const now = new Date('2026-03-10T00:00:00Z');
    expect(latestArchiveBefore(now)).toBe('2025-03');
    // 2026-01-31T18:00Z is already February in Jakarta.
    expect(latestArchiveBefore(new Date('2026-01-31T18:00:00Z'))).toBe('2025-02');
    for (const month of ['2025-04', '2026-03', '2026-05', '2030-01', '2025-13', '2025-3', 'last-year']) {
      await expect(archivePartitions(fork(), month, { now })).rejects.toBeInstanceOf(ArchiveRefusedError);
    }
    await expect(archivePartitions(fork(), '2026-03', { now, dryRun: true })).rejects.toThrow(/latest month allowed is 2025-03/);
    expect(await layout()).toEqual(before);
    expect(await sql(`select 1 from pg_namespace where nspname = ?`, [ARCHIVE_SCHEMA])).toEqual([]);
  });

  it('shows with a dry run what it would archive and the history bounds it would set, changing nothing', async () => {
    const plan = await archivePartitions(fork(), '2024-06', { dryRun: true });
    expect(plan.dry_run).toBe(true);
    for (const table of ['transactions', 'payment_events']) {
      expect(plan.archived.filter((a) => a.table === table).map((a) => a.archived_as)).toEqual(
        ['01', '02', '03', '04', '05'].map((m) => `archive.${table}_p2024_${m}`),
      );
      expect(plan.history).toContainEqual({
        table,
        partition: `${table}_history`,
        bounds: "FOR VALUES FROM (MINVALUE) TO ('2024-05-31 17:00:00+00')",
      });
    }
    expect(await layout()).toEqual(before);
  });

  it('gives up, changing nothing, when a query holds the table longer than its lock timeout allows, three times', async () => {
    await ensureArchiveSchema(database.adminUrl, ARCHIVE_SCHEMA);
    const reader = new Client({ connectionString: database.adminUrl });
    await reader.connect();
    try {
      await reader.query('begin');
      await reader.query('select count(*) from "transaction".transactions');
      const started = Date.now();
      const lock = { timeoutMs: 300, attempts: 3, pauseMs: 100 };
      await expect(archivePartitions(fork(), '2024-06', { lock })).rejects.toThrow(/no lock within 0.3s, 3 times .*changed nothing/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 300 + 2 * 100);
    } finally {
      await reader.end();
    }
    expect(await layout()).toEqual(before);
  }, 30_000);

  it('moves the months before --before to the archive schema and attaches the history up to the first month left', async () => {
    const result = await archivePartitions(fork(), '2024-06');
    expect(result.archived.map((a) => a.archived_as)).toEqual(
      ['transactions', 'payment_events'].flatMap((t) => ['01', '02', '03', '04', '05'].map((m) => `archive.${t}_p2024_${m}`)),
    );
    for (const table of ['transactions', 'payment_events']) {
      expect((await names(table)).slice(0, 2)).toEqual([`${table}_history`, `${table}_p2024_06`]);
      expect(await historyBound(table)).toBe("FOR VALUES FROM (MINVALUE) TO ('2024-05-31 17:00:00+00')");
      // The constraint that proved the new bound is gone with the commit.
      const checks = await sql(`select conname from pg_constraint where conrelid = ?::regclass and conname like '%archive_bound'`, [
        `"transaction".${table}_history`,
      ]);
      expect(checks).toEqual([]);
    }
    expect(result.history).toContainEqual({
      table: 'transactions',
      partition: 'transactions_history',
      bounds: "FOR VALUES FROM (MINVALUE) TO ('2024-05-31 17:00:00+00')",
    });
    // The rows went with their month, none of them into the history; what the history held stays there.
    expect(await partitionOf('transactions', archivedTransaction)).toBeUndefined();
    expect(await sql(`select id from archive.transactions_p2024_02 where id = ?`, [archivedTransaction])).toEqual([
      { id: archivedTransaction },
    ]);
    expect(await sql(`select id from archive.payment_events_p2024_03 where id = ?`, [success.eventId])).toEqual([{ id: success.eventId }]);
    expect(await partitionOf('transactions', olderTransaction)).toBe('transaction.transactions_history');
    expect(
      await sql(`select count(*)::int as n from "transaction".transactions_history where transaction_at >= '2024-01-01T00:00:00+07:00'`),
    ).toEqual([{ n: 0 }]);
    // Nothing is dropped, and the keys stay.
    expect((await listArchived(fork())).map((a) => a.table)).toEqual(
      expect.arrayContaining(['transactions_p2024_02', 'payment_events_p2024_03']),
    );
    expect(
      await sql(`select event_id from "transaction".payment_event_keys where bank_code = ? and external_event_id = ?`, [
        BANK,
        'EVT-ARCH-SUCCESS',
      ]),
    ).toEqual([{ event_id: success.eventId }]);
  });

  it('puts a back-dated row of an archived month into the history, and keeps the archived codes taken', async () => {
    const late = await record(event({ transactionAt: new Date('2024-03-15T08:00:00Z') }));
    expect(late.status).toBe('success');
    expect(await partitionOf('transactions', late.transactionId!)).toBe('transaction.transactions_history');
    const reused = await record(event({ transactionCode: success.code.replace('TRX-OLD', 'TRX-NEW') }));
    expect(reused.status).toBe('success');
    const [archivedCode] = await sql<{ transaction_code: string }>(
      `select transaction_code from archive.transactions_p2024_03 where id = ?`,
      [success.transactionId],
    );
    const taken = await record(event({ transactionCode: archivedCode.transaction_code }));
    expect(taken).toMatchObject({ status: 'rejected', errorCode: 'duplicate_transaction_code' });
    // A refund of an archived transaction finds no original online.
    const refund = await record(
      event({ eventType: 'transaction.refunded', transactionCode: archivedCode.transaction_code, grossAmount: 1000 }),
    );
    expect(refund).toMatchObject({ status: 'rejected', errorCode: 'original_not_found' });
  });

  it('archives nothing more when run again, also beside partitions:ensure', async () => {
    const layoutNow = await layout();
    expect((await archivePartitions(fork(), '2024-06')).archived).toEqual([]);
    expect((await archivePartitions(fork(), '2024-02')).archived).toEqual([]);
    const [archived, ensured] = await Promise.all([archivePartitions(fork(), '2024-06'), ensurePartitions(fork(), 3)]);
    expect(archived.archived).toEqual([]);
    expect(ensured).toEqual({ created: [] });
    expect(await layout()).toEqual(layoutNow);
  });

  it('refuses to archive a month created again after it was archived, changing nothing', async () => {
    await ensurePartitions(fork(), 3, { from: new Date('2024-05-10T00:00:00Z') });
    expect((await names('transactions')).slice(0, 2)).toEqual(['transactions_history', 'transactions_p2024_05']);
    const layoutNow = await layout();
    await expect(archivePartitions(fork(), '2024-06')).rejects.toThrow(/archive\.transactions_p2024_05 exists already/);
    expect(await layout()).toEqual(layoutNow);
    // The operator moves the first copy aside; then the month is archived (its index names, taken by the first copy's, get a suffix).
    await sql(`alter table archive.transactions_p2024_05 rename to transactions_p2024_05_first`);
    await sql(`alter table archive.payment_events_p2024_05 rename to payment_events_p2024_05_first`);
    expect((await archivePartitions(fork(), '2024-06')).archived.map((a) => a.partition)).toEqual([
      'transactions_p2024_05',
      'payment_events_p2024_05',
    ]);
    expect((await names('transactions')).slice(0, 2)).toEqual(['transactions_history', 'transactions_p2024_06']);
    expect(
      await sql(
        `select indexrelid::regclass::text as i from pg_index where indrelid = 'archive.transactions_p2024_05'::regclass and indisprimary`,
      ),
    ).toEqual([{ i: 'archive.transactions_p2024_05_pkey_2' }]);
  });

  it('answers a replay of an archived event duplicate_skipped with its first result, storing nothing', async () => {
    const count = async (schema: string) =>
      (await sql<{ n: number }>(`select count(*)::int as n from ${schema}.payment_events where external_event_id = 'EVT-ARCH-SUCCESS'`))[0]
        .n;
    const replay = await record(event({ externalEventId: 'EVT-ARCH-SUCCESS' }));
    expect(replay).toEqual({
      eventId: success.eventId,
      status: 'duplicate_skipped',
      flow: 'transaction.created',
      merchantId,
      outletId: null,
      transactionId: success.transactionId,
      errorCode: null,
      applied: true,
    });
    // Through a batch (the bank adapter's path) too, twice in one batch.
    const batch = await service().recordBatch(
      [event({ externalEventId: 'EVT-ARCH-SUCCESS' }), event({ externalEventId: 'EVT-ARCH-SUCCESS' }), event()].map((input) => ({
        input,
        bankCode: BANK,
      })),
      silent,
    );
    expect(batch.map((o) => o.result?.status)).toEqual(['duplicate_skipped', 'duplicate_skipped', 'success']);
    expect(batch[0].result).toEqual(replay);
    expect(await count('"transaction"')).toBe(0);
    expect(
      await sql(`select count(*)::int as n from archive.payment_events_p2024_03 where external_event_id = 'EVT-ARCH-SUCCESS'`),
    ).toEqual([{ n: 1 }]);
  });

  it('answers a replay of an archived rejected event as final, and one whose archived table is gone from its key', async () => {
    const transactions = () => sql(`select count(*)::int as n from "transaction".transactions where merchant_id = ?`, [merchantId]);
    const transactionsBefore = await transactions();
    const replay = await record(event({ externalEventId: 'EVT-ARCH-REJECTED' }));
    expect(replay).toMatchObject({ eventId: rejected.eventId, status: 'duplicate_skipped', flow: 'recorded_unapplied', errorCode: null });
    // Not attempted again: nothing recorded.
    expect(await transactions()).toEqual(transactionsBefore);

    // The operator dumped and dropped the month: the key still answers, with this delivery's flow and merchant.
    await adminQuery(database.adminUrl, 'drop table archive.payment_events_p2024_03');
    const afterDrop = await service().recordBatch([{ input: event({ externalEventId: 'EVT-ARCH-SUCCESS' }), bankCode: BANK }], silent);
    expect(afterDrop[0].result).toEqual({
      eventId: success.eventId,
      status: 'duplicate_skipped',
      flow: 'transaction.created',
      merchantId,
      outletId: null,
      transactionId: null,
      errorCode: null,
      applied: true,
    });
    expect(await record(event({ externalEventId: 'EVT-ARCH-SUCCESS' }))).toEqual(afterDrop[0].result);
  });
});
