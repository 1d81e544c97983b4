import path from 'node:path';
import { request } from 'undici';
import { type Config, loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { changeMerchantStatus, setBankWebhook } from '@scripts/database-tasks';
import { adminQuery } from '../support/test-database';
import { PostgresServer, TcpForwarder, archiveSettings, removeFolders, serverFolder, serverSubfolder } from './postgres-cluster';
import { ProcessStack, WebhookReceiver, freePorts, prepareDatabase, sleep } from './processes';
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
 * timeline (docs/decisions/0212-database-high-availability.md; figures in docs/resilience.md and docs/operations.md).
 */
const GATEWAY_TIMEOUT_MS = 3000;
/** No answer may take longer: the REST process's gateway timeout plus scheduling slack on a loaded machine. */
const ANSWER_LIMIT_MS = GATEWAY_TIMEOUT_MS + 4000;
/** The failover manager's detection time (Patroni's loop, CloudNativePG's probe): the harness's is fixed and short. */
const DETECTION_MS = 1000;
const RECOVERY_LIMIT_MS = 30_000;
const STANDBY = 'standby1';
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

describe('resilience: the primary database machine dies, the synchronous standby takes over; a mistake is undone by point-in-time restore', () => {
  let folder: string;
  let archiveDir: string;
  let primaryPort: number, standbyPort: number, addressPort: number, receiverPort: number, restoredPort: number;
  let restored: PostgresServer | undefined;
  let primary: PostgresServer;
  let standby: PostgresServer;
  let address: TcpForwarder;
  let adminUrl: string;
  let config: Config;
  let stack: ProcessStack;
  let traffic: WriteTraffic;
  let receiver: WebhookReceiver;
  let pidsBefore: (number | undefined)[];
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    folder = await serverFolder('ha-database-');
    archiveDir = await serverSubfolder(folder, 'wal-archive');
    [primaryPort, standbyPort, addressPort, receiverPort, restoredPort] = await freePorts(5);
    primary = await PostgresServer.init(path.join(folder, 'primary'), primaryPort, archiveSettings(archiveDir));
    // A commit returns once the standby has flushed its WAL (synchronous_commit=on): what was acknowledged survives
    // the primary's machine. remote_apply would also wait for the replay, which only reads on the standby need.
    primary.setSettings({ synchronous_standby_names: STANDBY, synchronous_commit: 'on' });
    await primary.start();
    standby = await PostgresServer.standbyOf(primary, path.join(folder, 'standby'), standbyPort, STANDBY);
    // The standby archives every segment it receives too: what the primary had not archived when its machine died is
    // in the archive all the same.
    standby.setSettings({ archive_mode: 'always' });
    await standby.start();
    const deadline = Date.now() + 30_000;
    while (
      (await primary.query(`select 1 from pg_stat_replication where application_name = $1 and sync_state = 'sync'`, [STANDBY])).length === 0
    ) {
      if (Date.now() > deadline) throw new Error(`the standby never became synchronous:\n${standby.output.join('\n')}`);
      await sleep(100);
    }

    address = new TcpForwarder(addressPort, primary.port);
    await address.start();
    adminUrl = `postgres://postgres@${address.url}/ha_failover`;
    await prepareDatabase(adminUrl);
    config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: adminUrl });

    receiver = new WebhookReceiver(receiverPort);
    const endpoint = await setBankWebhook(config, adminUrl, { bankCode: DEMO.bank.code, url: `http://127.0.0.1:${receiver.port}/hooks` });
    receiver.setSecret(endpoint.webhook_secret);
    await receiver.up();

    stack = await ProcessStack.start(adminUrl, { env: { GATEWAY_TIMEOUT_MS: String(GATEWAY_TIMEOUT_MS), JOBS_POLL_INTERVAL_MS: '100' } });
    pidsBefore = stack.all().map((p) => p.pid);

    // The nightly base backup; the WAL archive holds everything after it.
    const backupFrom = Date.now();
    await PostgresServer.baseBackup(primary, path.join(folder, 'base'));
    figures.baseBackupMs = Date.now() - backupFrom;

    // The POS pushes' product, made through the API as a device's back office would.
    const apiKey = config.secrets.internalApiKey;
    const product = await request(`${stack.restOrigin}/poslite/catalog/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-api-key': apiKey, 'x-merchant-id': DEMO.merchantId },
      body: JSON.stringify({ name: 'Kopi Susu', sku: 'HA-KOPI', sell_price_amount: 18_000 }),
    });
    const { id: productId } = (await product.body.json()) as { id: string };
    const [{ id: variantId }] = await adminQuery<{ id: string }>(adminUrl, 'select id from catalog.variants where product_id = $1', [
      productId,
    ]);
    traffic = new WriteTraffic(stack.restOrigin, ANSWER_LIMIT_MS, {
      apiKey,
      merchantId: DEMO.merchantId,
      outletId: DEMO.outlets[0].id,
      variantId,
      price: 18_000,
    });
  }, 170_000);

  afterAll(async () => {
    await traffic?.stop();
    await traffic?.close();
    await stack?.stop();
    await receiver?.down();
    await address?.close();
    await Promise.all([primary?.stop(), standby?.stop(), restored?.stop()]);
    if (folder) await removeFolders(folder);
    if (Object.keys(figures).length > 0) process.stderr.write(`failover: ${JSON.stringify(figures)}\n`);
  });

  it('answers 200 or a clean 503 through the failover and recovers without restarting a process', async () => {
    traffic.start({ event: 3, settlement: 1, pos: 1 });
    await sleep(2000);
    const baseline = traffic.inPhase('baseline');
    expect(baseline.length).toBeGreaterThan(10);
    expect(baseline.filter((a) => a.status !== 200)).toEqual([]);

    traffic.phase = 'primary-lost';
    const killedAt = Date.now();
    await primary.killMachine();
    // The address still names the dead primary (connections refused) until the manager notices and promotes.
    await sleep(DETECTION_MS);
    const promoteFrom = Date.now();
    await standby.promote();
    figures.promoteMs = Date.now() - promoteFrom;
    address.switchTo(standby.port);
    traffic.phase = 'promoted';
    figures.recoveryAfterSwitchMs = await traffic.recovered(RECOVERY_LIMIT_MS);
    await sleep(1000);
    await traffic.stop();

    const firstOk = traffic.answers
      .filter((a) => a.sentAt >= killedAt && a.status === 200)
      .sort((a, b) => a.sentAt + a.ms - (b.sentAt + b.ms))[0];
    figures.rtoMs = firstOk.sentAt + firstOk.ms - killedAt;
    figures.requests = traffic.answers.length;
    figures.refused = traffic.answers.filter((a) => a.status === 503).length;
    expect(uncleanAnswers(traffic.answers, ANSWER_LIMIT_MS)).toEqual([]);
    expect(traffic.inPhase('primary-lost').filter((a) => a.status === 503).length).toBeGreaterThan(0);
    // No process was restarted: each found the new primary through the same address.
    expect(stack.all().map((p) => p.pid)).toEqual(pidsBefore);
  });

  it('lost nothing acknowledged (RPO 0), and stores every request exactly once after the clients retry', async () => {
    const stored = async () => ({
      event: new Map(
        (
          await adminQuery<{ id: string; n: string; transactions: string }>(
            adminUrl,
            `select e.external_event_id as id, count(*) as n,
                    (select count(*) from "transaction".transactions t where t.transaction_code = 'TRX-' || e.external_event_id) as transactions
               from "transaction".payment_events e where e.bank_code = $1 and e.external_event_id like 'event-%' group by 1`,
            [DEMO.bank.code],
          )
        ).map((r) => [r.id, Number(r.n) === 1 && Number(r.transactions) === 1 ? 1 : 2]),
      ),
      settlement: new Map(
        (
          await adminQuery<{ id: string; n: string }>(
            adminUrl,
            `select external_event_id as id, count(*) as n from "transaction".settlements where bank_code = $1 and external_event_id like 'settlement-%' group by 1`,
            [DEMO.bank.code],
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
      traffic
        .acknowledged(kind)
        .filter((id) => !present(before, kind, id))
        .map((id) => `${kind}:${id}`),
    );
    figures.acknowledged = kinds.reduce((n, kind) => n + traffic.acknowledged(kind).length, 0);
    figures.lost = lost.length;
    expect(lost).toEqual([]);

    // Clients retry what was refused (the bank's and the device's retry rules); then everything is answered.
    traffic.phase = 'retries';
    for (const kind of kinds) {
      const retried = await Promise.all(traffic.unanswered(kind).map((id) => traffic.send(kind, id)));
      expect(retried.filter((a) => a.status !== 200)).toEqual([]);
    }
    const after = await stored();
    for (const kind of kinds) {
      const acknowledged = traffic.acknowledged(kind);
      expect({ kind, missing: acknowledged.filter((id) => !present(after, kind, id)) }).toEqual({ kind, missing: [] });
      const count = kind === 'pos' ? acknowledged.filter((id) => after.pos.has(posOrderId(id))).length : after[kind].size;
      // Nothing stored that no client was told about, nothing twice.
      expect({ kind, count }).toEqual({ kind, count: acknowledged.length });
      if (kind !== 'pos') expect([...after[kind].values()].filter((n) => n !== 1)).toEqual([]);
    }
  });

  it('runs background jobs on the new primary: a lifecycle webhook is delivered', async () => {
    const outcome = await changeMerchantStatus(config, adminUrl, {
      merchantId: DEMO.otherMerchants[0].id,
      targetStatus: 'suspended',
      reason: 'violation',
    });
    const eventId = outcome.webhook!.event_id;
    const deadline = Date.now() + 20_000;
    while (!receiver.received.some((r) => r.eventId === eventId)) {
      if (Date.now() > deadline) throw new Error(`webhook ${eventId} not delivered after the failover:\n${stack.report()}`);
      await sleep(100);
    }
    expect(receiver.badSignatures).toBe(0);
  });

  it('restores to the second before an operator deleted a merchant’s sales orders: base backup + archived WAL, across the failover', async () => {
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
    const before = await fingerprint(standby);
    const [{ at }] = await standby.query<{ at: string }>(
      `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' as at`,
    );
    await sleep(50);
    // The mistake: a merchant's sales orders deleted by hand (items and payments first, their foreign keys).
    const merchant = `'${DEMO.merchantId}'`;
    const orders = `select id from catalog.sales_orders where merchant_id = ${merchant}`;
    await standby.query(
      `begin;
       delete from catalog.sales_order_payments where sales_order_id in (${orders});
       delete from catalog.sales_order_items where sales_order_id in (${orders});
       delete from catalog.sales_orders where merchant_id = ${merchant};
       commit;`,
      [],
      database,
    );
    const damaged = await fingerprint(standby);
    const orderRows = (rows: typeof before) => Number(rows.find((r) => r.name === 'catalog.sales_orders')!.rows);
    expect(orderRows(before)).toBeGreaterThan(10);
    expect(orderRows(damaged)).toBeLessThan(orderRows(before));

    // The segment holding the mistake is closed and archived (the WAL after the target tells recovery it is there).
    const [{ segment }] = await standby.query<{ segment: string }>('select pg_walfile_name(pg_switch_wal()) as segment');
    const archivedBy = Date.now() + 30_000;
    while ((await standby.query(`select 1 from pg_stat_archiver where last_archived_wal >= $1`, [segment])).length === 0) {
      if (Date.now() > archivedBy) throw new Error(`segment ${segment} not archived:\n${standby.output.join('\n')}`);
      await sleep(100);
    }

    const restoreFrom = Date.now();
    restored = await PostgresServer.restore(path.join(folder, 'base'), path.join(folder, 'restored'), restoredPort, archiveDir, at);
    await restored.start();
    const promotedBy = Date.now() + 60_000;
    while ((await restored.query<{ recovering: boolean }>('select pg_is_in_recovery() as recovering'))[0].recovering) {
      if (Date.now() > promotedBy) throw new Error(`the restored server never finished recovery:\n${restored.output.join('\n')}`);
      await sleep(100);
    }
    figures.restoreMs = Date.now() - restoreFrom;
    const [{ bytes }] = await restored.query<{ bytes: string }>(`select pg_database_size('${database}') as bytes`);
    figures.restoredDatabaseMb = Math.round(Number(bytes) / 1e5) / 10;
    expect(await fingerprint(restored)).toEqual(before);
  });
});
