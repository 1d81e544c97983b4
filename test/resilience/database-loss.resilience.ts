import path from 'node:path';
import { type Config, SUBGRAPH_NAMES, loadConfig } from '@lib/config/config';
import { roleOf } from '@lib/db/database-urls';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { changeMerchantStatus, setBankWebhook } from '@scripts/database-tasks';
import { adminQuery } from '../support/test-database';
import { PgBouncer } from '../pooler/pgbouncer';
import { PostgresServer, TcpForwarder, archiveSettings, removeFolders, serverFolder, serverSubfolder } from './postgres-cluster';
import { ProcessStack, WebhookReceiver, freePorts, prepareDatabase, sleep } from './processes';
import { eventually } from '../support/eventually';
import { type Kind, WriteTraffic, posOrderId, uncleanAnswers } from './traffic';

/**
 * Losing the database machine: a primary and a synchronous streaming standby (two real PostgreSQL servers, own data
 * folders and ports), the platform's processes reaching them through one stable address that follows the primary
 * (TcpForwarder, as a CloudNativePG `-rw` Service or Patroni's endpoint). Under signed bank events, settlements and
 * POS pushes: kill -9 the primary's machine (postmaster and every backend), promote the standby (pg_ctl promote),
 * switch the address. Every request answered 200 before, during and after is on the new primary exactly once (RPO 0);
 * in the gap, only 503 with the error body, each within the timeout; the processes recover without a restart.
 * Then an operator's mistake undone: a base backup taken before the traffic, the WAL both servers archived, and a
 * fresh server restored to the second before a merchant's sales orders were deleted, across the failover's new
 * timeline. Then the promoted server gets a standby of its own (synchronous again), the processes are started anew
 * with their pools through PgBouncer in transaction mode (DATABASE_POOLER_ADDRESS; the LISTEN sessions stay direct),
 * and the new primary's machine dies in turn (docs/decisions/0228-database-high-availability.md; figures in
 * docs/resilience.md and docs/operations.md).
 */
const GATEWAY_TIMEOUT_MS = 3000;
/** No answer may take longer: the REST process's gateway timeout plus scheduling slack on a loaded machine. */
const ANSWER_LIMIT_MS = GATEWAY_TIMEOUT_MS + 4000;
/** The failover manager's detection time (Patroni's loop, CloudNativePG's probe): the harness's is fixed and short. */
const DETECTION_MS = 1000;
const RECOVERY_LIMIT_MS = 30_000;
/** What the restore must bring back exactly: the POS sales and the bank intake, every row. */
const FINGERPRINTED = [
  'catalog.sales_orders',
  'catalog.sales_order_items',
  'catalog.sales_order_payments',
  'catalog.sync_receipts',
  '"transaction".payment_events',
  '"transaction".settlements',
  '"transaction".transactions',
];

describe('resilience: the primary database machine dies, the synchronous standby takes over', () => {
  let folder: string;
  let archiveDir: string;
  let ports: number[];
  let servers: PostgresServer[];
  let restored: PostgresServer | undefined;
  let bouncer: PgBouncer | undefined;
  let address: TcpForwarder;
  let adminUrl: string;
  let config: Config;
  let stack: ProcessStack | undefined;
  let traffic: WriteTraffic | undefined;
  let receiver: WebhookReceiver;
  let variantId: string;
  const figures: Record<string, Record<string, number>> = {};

  /** The primary has a synchronous standby named `name`. */
  async function waitForSync(primary: PostgresServer, name: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    const sql = `select 1 from pg_stat_replication where application_name = $1 and sync_state = 'sync'`;
    while ((await primary.query(sql, [name])).length === 0) {
      if (Date.now() > deadline) throw new Error(`${name} never became synchronous`);
      await sleep(100);
    }
  }

  /** The six processes on the stable address (`env`: the pooler), and a write stream of ids starting with `prefix`. */
  async function startStack(env: Record<string, string>, prefix: string): Promise<void> {
    stack = await ProcessStack.start(adminUrl, {
      env: { GATEWAY_TIMEOUT_MS: String(GATEWAY_TIMEOUT_MS), JOBS_POLL_INTERVAL_MS: '100', ...env },
    });
    const pos = {
      apiKey: config.secrets.internalApiKey,
      merchantId: DEMO.merchantId,
      outletId: DEMO.outlets[0].id,
      variantId,
      price: 18_000,
    };
    traffic = new WriteTraffic(stack.restOrigin, ANSWER_LIMIT_MS, pos, prefix);
  }

  async function stopStack(): Promise<void> {
    await traffic?.stop();
    await traffic?.close();
    await stack?.stop();
  }

  beforeAll(async () => {
    folder = await serverFolder('ha-database-');
    archiveDir = await serverSubfolder(folder, 'wal-archive');
    ports = await freePorts(6);
    const [primaryPort, standbyPort, addressPort, receiverPort] = ports;
    const primary = await PostgresServer.init(path.join(folder, 'primary'), primaryPort, archiveSettings(archiveDir));
    // A commit returns once the standby has flushed its WAL (synchronous_commit=on): what was acknowledged survives
    // the primary's machine. remote_apply would also wait for the replay, which only reads on the standby need.
    primary.setSettings({ synchronous_standby_names: 'standby1', synchronous_commit: 'on' });
    await primary.start();
    const standby = await PostgresServer.standbyOf(primary, path.join(folder, 'standby1'), standbyPort, 'standby1');
    // The standby archives every segment it receives too: what the primary had not archived when its machine died is
    // in the archive all the same.
    standby.setSettings({ archive_mode: 'always' });
    await standby.start();
    servers = [primary, standby];
    await waitForSync(primary, 'standby1');

    address = new TcpForwarder(addressPort, primary.port);
    await address.start();
    adminUrl = `postgres://postgres@${address.url}/ha_failover`;
    await prepareDatabase(adminUrl);
    config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: adminUrl });
    receiver = new WebhookReceiver(receiverPort);
    const endpoint = await setBankWebhook(config, adminUrl, { bankCode: DEMO.bank.code, url: `http://127.0.0.1:${receiver.port}/hooks` });
    receiver.setSecret(endpoint.webhook_secret);
    await receiver.up();
    // The POS pushes' product.
    const [{ id }] = await adminQuery<{ id: string }>(
      adminUrl,
      `with p as (insert into catalog.products (id, merchant_id, name, sku, sell_price_amount, track_stock, created_at, updated_at)
                  values (gen_random_uuid(), $1, 'Kopi Susu', 'HA-KOPI', 18000, false, now(), now()) returning id, merchant_id, name, sku)
       insert into catalog.variants (id, merchant_id, product_id, name, sku, is_default, created_at, updated_at)
       select gen_random_uuid(), merchant_id, id, name, sku, true, now(), now() from p returning id`,
      [DEMO.merchantId],
    );
    variantId = id;

    // The nightly base backup; the WAL archive holds everything after it.
    const backupFrom = Date.now();
    await PostgresServer.baseBackup(primary, path.join(folder, 'base'));
    figures.direct = { baseBackupMs: Date.now() - backupFrom };
    await startStack({}, 'r1-');
  }, 170_000);

  afterAll(async () => {
    await stopStack();
    await receiver?.down();
    await bouncer?.stop();
    await address?.close();
    const running = [...(servers ?? []), ...(restored ? [restored] : [])];
    await Promise.all(running.map((server) => server.stop()));
    if (folder) await removeFolders(folder);
    process.stderr.write(`failover: ${JSON.stringify(figures)}\n`);
  });

  /**
   * Writes stream in; the primary's machine dies; after the detection time the standby is promoted and the address
   * switched. Every answer is a 200 or the clean 503, within the limit; no process restarts.
   */
  async function failover(primary: PostgresServer, standby: PostgresServer, measured: Record<string, number>): Promise<void> {
    const pids = stack!.all().map((p) => p.pid);
    const writes = traffic!;
    writes.start({ event: 3, settlement: 1, pos: 1 });
    // A baseline of a few answers of each kind first (2 s on a quiet machine; longer while another suite boots).
    await eventually('more than 10 baseline answers', async () => writes.inPhase('baseline').length > 10 || undefined, 30_000);
    const baseline = writes.inPhase('baseline');
    expect(baseline.length).toBeGreaterThan(10);
    expect(baseline.filter((a) => a.status !== 200)).toEqual([]);

    writes.phase = 'primary-lost';
    const killedAt = Date.now();
    await primary.killMachine();
    // The address still names the dead primary (connections refused) until the manager notices and promotes.
    await sleep(DETECTION_MS);
    const promoteFrom = Date.now();
    await standby.promote();
    measured.promoteMs = Date.now() - promoteFrom;
    address.switchTo(standby.port);
    writes.phase = 'promoted';
    measured.recoveryAfterSwitchMs = await writes.recovered(RECOVERY_LIMIT_MS);
    await sleep(1000);
    await writes.stop();

    const firstOk = writes.answers
      .filter((a) => a.sentAt >= killedAt && a.status === 200)
      .sort((a, b) => a.sentAt + a.ms - (b.sentAt + b.ms))[0];
    measured.rtoMs = firstOk.sentAt + firstOk.ms - killedAt;
    measured.requests = writes.answers.length;
    measured.refused = writes.answers.filter((a) => a.status === 503).length;
    expect(uncleanAnswers(writes.answers, ANSWER_LIMIT_MS)).toEqual([]);
    // The gap was real: directly, requests are refused at once (503); PgBouncer holds them until the new primary
    // answers (at most its query_wait_timeout, 3 s), so they are slow 200s.
    expect(writes.inPhase('primary-lost').some((a) => a.status === 503 || a.ms >= DETECTION_MS / 2)).toBe(true);
    // No process was restarted: each found the new primary through the same address.
    expect(stack!.all().map((p) => p.pid)).toEqual(pids);
  }

  /** RPO 0: nothing acknowledged is missing; then the clients retry what was refused, and each is stored once. */
  async function storedExactlyOnce(measured: Record<string, number>): Promise<void> {
    const writes = traffic!;
    const stored = async () => ({
      event: new Map(
        (
          await adminQuery<{ id: string; n: string; transactions: string }>(
            adminUrl,
            `select e.external_event_id as id, count(*) as n,
                    (select count(*) from "transaction".transactions t where t.transaction_code = 'TRX-' || e.external_event_id) as transactions
               from "transaction".payment_events e where e.bank_code = $1 and e.external_event_id like $2 group by 1`,
            [DEMO.bank.code, `${writes.prefix}event-%`],
          )
        ).map((r) => [r.id, Number(r.n) === 1 && Number(r.transactions) === 1 ? 1 : 2]),
      ),
      settlement: new Map(
        (
          await adminQuery<{ id: string; n: string }>(
            adminUrl,
            `select external_event_id as id, count(*) as n from "transaction".settlements where bank_code = $1 and external_event_id like $2 group by 1`,
            [DEMO.bank.code, `${writes.prefix}settlement-%`],
          )
        ).map((r) => [r.id, Number(r.n)]),
      ),
      pos: new Set(
        (await adminQuery<{ id: string }>(adminUrl, `select id from catalog.sales_orders where merchant_id = $1`, [DEMO.merchantId])).map(
          (r) => r.id,
        ),
      ),
    });
    const kinds: Kind[] = ['event', 'settlement', 'pos'];
    const present = (rows: Awaited<ReturnType<typeof stored>>, kind: Kind, id: string) =>
      kind === 'pos' ? rows.pos.has(posOrderId(id)) : rows[kind].get(id) === 1;

    // RPO: acknowledged before the clients retry anything, yet absent from the new primary.
    const before = await stored();
    const lost = kinds.flatMap((kind) =>
      writes
        .acknowledged(kind)
        .filter((id) => !present(before, kind, id))
        .map((id) => `${kind}:${id}`),
    );
    measured.acknowledged = kinds.reduce((n, kind) => n + writes.acknowledged(kind).length, 0);
    measured.lost = lost.length;
    expect(lost).toEqual([]);

    // Clients retry what was refused (the bank's and the device's retry rules); then everything is answered.
    writes.phase = 'retries';
    for (const kind of kinds) {
      const retried = await Promise.all(writes.unanswered(kind).map((id) => writes.send(kind, id)));
      expect(retried.filter((a) => a.status !== 200)).toEqual([]);
    }
    const after = await stored();
    for (const kind of kinds) {
      const acknowledged = writes.acknowledged(kind);
      expect({ kind, missing: acknowledged.filter((id) => !present(after, kind, id)) }).toEqual({ kind, missing: [] });
      const count = kind === 'pos' ? acknowledged.filter((id) => after.pos.has(posOrderId(id))).length : after[kind].size;
      // Nothing stored that no client was told about, nothing twice.
      expect({ kind, count }).toEqual({ kind, count: acknowledged.length });
      if (kind !== 'pos') expect([...after[kind].values()].filter((n) => n !== 1)).toEqual([]);
    }
  }

  /** The job workers (graphile-worker, LISTEN) run on the new primary: a lifecycle webhook written now is delivered. */
  async function webhookDelivered(targetStatus: 'suspended' | 'active'): Promise<void> {
    const move = { merchantId: DEMO.otherMerchants[0].id, targetStatus, ...(targetStatus === 'suspended' ? { reason: 'violation' } : {}) };
    const eventId = (await changeMerchantStatus(config, adminUrl, move)).webhook!.event_id;
    const deadline = Date.now() + 20_000;
    while (!receiver.received.some((r) => r.eventId === eventId)) {
      if (Date.now() > deadline) throw new Error(`webhook ${eventId} not delivered after the failover:\n${stack!.report()}`);
      await sleep(100);
    }
    expect(receiver.badSignatures).toBe(0);
  }

  describe('the pools reaching the address directly', () => {
    it('answers 200 or a clean 503 through the failover and recovers without restarting a process', () =>
      failover(servers[0], servers[1], figures.direct));

    it('lost nothing acknowledged (RPO 0), and stores every request exactly once after the clients retry', () =>
      storedExactlyOnce(figures.direct));

    it('runs background jobs on the new primary: a lifecycle webhook is delivered', () => webhookDelivered('suspended'));

    it('restores to the second before an operator deleted a merchant’s sales orders: base backup + archived WAL, across the failover', async () => {
      const current = servers[1];
      const database = 'ha_failover';
      const fingerprint = (server: PostgresServer) =>
        server.query<{ name: string; rows: string; digest: string }>(
          FINGERPRINTED.map(
            (table) =>
              `select '${table}' as name, count(*) as rows, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${table} t`,
          ).join(' union all '),
          [],
          database,
        );
      const before = await fingerprint(current);
      const [{ at }] = await current.query<{ at: string }>(
        `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' as at`,
      );
      await sleep(50);
      // The mistake: a merchant's sales orders deleted by hand (items and payments first, their foreign keys).
      const merchant = `'${DEMO.merchantId}'`;
      const orders = `select id from catalog.sales_orders where merchant_id = ${merchant}`;
      await current.query(
        `begin;
     delete from catalog.sales_order_payments where sales_order_id in (${orders});
     delete from catalog.sales_order_items where sales_order_id in (${orders});
     delete from catalog.sales_orders where merchant_id = ${merchant};
     commit;`,
        [],
        database,
      );
      const damaged = await fingerprint(current);
      const orderRows = (rows: typeof before) => Number(rows.find((r) => r.name === 'catalog.sales_orders')!.rows);
      expect(orderRows(before)).toBeGreaterThan(10);
      expect(orderRows(damaged)).toBeLessThan(orderRows(before));

      // The segment holding the mistake is closed and archived (the WAL after the target tells recovery it is there).
      const [{ segment }] = await current.query<{ segment: string }>('select pg_walfile_name(pg_switch_wal()) as segment');
      const archivedBy = Date.now() + 30_000;
      while ((await current.query(`select 1 from pg_stat_archiver where last_archived_wal >= $1`, [segment])).length === 0) {
        if (Date.now() > archivedBy) throw new Error(`segment ${segment} not archived:\n${current.output.join('\n')}`);
        await sleep(100);
      }

      const restoreFrom = Date.now();
      restored = await PostgresServer.restore(path.join(folder, 'base'), path.join(folder, 'restored'), ports[4], archiveDir, at);
      await restored.start();
      const promotedBy = Date.now() + 60_000;
      while ((await restored.query<{ recovering: boolean }>('select pg_is_in_recovery() as recovering'))[0].recovering) {
        if (Date.now() > promotedBy) throw new Error(`the restored server never finished recovery:\n${restored.output.join('\n')}`);
        await sleep(100);
      }
      figures.direct.restoreMs = Date.now() - restoreFrom;
      const [{ bytes }] = await restored.query<{ bytes: string }>(`select pg_database_size('${database}') as bytes`);
      figures.direct.restoredDatabaseMb = Math.round(Number(bytes) / 1e5) / 10;
      expect(await fingerprint(restored)).toEqual(before);
    });
  });

  describe('a new synchronous standby, the pools through PgBouncer in transaction mode', () => {
    beforeAll(async () => {
      await stopStack();
      // The promoted server gets a standby of its own, and lists it: commits wait for it again.
      const [, primary] = servers;
      const standby = await PostgresServer.standbyOf(primary, path.join(folder, 'standby2'), ports[5], 'standby2');
      standby.setSettings({ archive_mode: 'always' });
      await standby.start();
      servers.push(standby);
      await primary.query(`alter system set synchronous_standby_names = 'standby2'`);
      await primary.query('select pg_reload_conf()');
      await waitForSync(primary, 'standby2');

      const users = Object.fromEntries(SUBGRAPH_NAMES.map((name) => [roleOf(config, name), config.database.rolePassword]));
      bouncer = await PgBouncer.start({ host: '127.0.0.1', port: address.port }, users);
      figures.pgbouncer = {};
      await startStack({ DATABASE_POOLER_ADDRESS: bouncer.address, DB_PREPARED_STATEMENTS: 'unnamed' }, 'r2-');
      // A base backup and a whole stack's start: past 120 s on a loaded 2-core CI machine beside the rolling restart.
    }, 300_000);

    it('answers 200 or a clean 503 through the second failover and recovers without restarting a process', () =>
      failover(servers[1], servers[2], figures.pgbouncer));

    it('lost nothing acknowledged (RPO 0), and stores every request exactly once after the clients retry', () =>
      storedExactlyOnce(figures.pgbouncer));

    it('runs background jobs on the new primary: a lifecycle webhook is delivered', () => webhookDelivered('active'));
  });
});
