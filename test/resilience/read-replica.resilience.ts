import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createRestApp } from '@lib/rest/rest-app';
import { REST_ADAPTERS } from '@rest-adapters';
import { restOperations } from '@rest-adapters/gateway';
import { createPartner, issuePartnerCredential, onboardMerchant } from '@scripts/database-tasks';
import { SUBGRAPHS } from '@subgraphs';
import { PostgresServer, removeFolders, serverFolder } from './postgres-cluster';
import { demoBankEventRequest } from '../support/bank-events';
import { freePorts, prepareDatabase, sleep } from './processes';

/**
 * Read replicas (docs/decisions/0228-database-high-availability.md) on a real primary and an asynchronous streaming replica
 * (PostgreSQL from Debian's packages): the REST app with its subgraphs in process, DATABASE_READ_URL on the replica.
 * A partner's transaction page (lag-tolerant in its transaction subgraph part, lib/federation/replica-reads.ts) reads
 * the replica: with replay paused, a payment the bank just reported (on the primary) is not listed yet, while a bank
 * lookup by NMID (fresh data) shows a rename at once. Past DB_REPLICA_MAX_LAG_MS the page falls back to the primary;
 * replay resumed, it reads the replica again; the replica stopped, it answers 200 (503 with the error body at most
 * within one poll interval), never 500, never past the timeout.
 */
const GATEWAY_TIMEOUT_MS = 3000;
const ANSWER_LIMIT_MS = GATEWAY_TIMEOUT_MS + 4000;
const MAX_LAG_MS = 1500;
/** After the replica stopped, by when every lag-tolerant read is on the primary: two polls and their timeouts. */
const SETTLED_MS = 3000;
const DATABASE = 'read_replica';
const NMID = 'ID4026112499001';

describe('resilience: lag-tolerant reads on a streaming replica, the primary when it lags or is gone', () => {
  let folder: string;
  let primary: PostgresServer;
  let replica: PostgresServer;
  let rest: FastifyInstance;
  let token: string;
  let merchantId: string;
  const logs: { msg?: string; subgraph?: string }[] = [];

  const heartbeat = () => primary.query(`insert into heartbeat values (now())`);
  /** The replica has replayed everything the primary wrote so far. */
  async function caughtUp(): Promise<void> {
    const [{ lsn }] = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const deadline = Date.now() + 30_000;
    const sql = 'select pg_wal_lsn_diff(pg_last_wal_replay_lsn(), $1::pg_lsn) >= 0 as done';
    while (!(await replica.query<{ done: boolean }>(sql, [lsn]))[0].done) {
      if (Date.now() > deadline) throw new Error('the replica never caught up');
      await sleep(50);
    }
  }
  const rename = (name: string) => primary.query(`update merchant.merchants set name = $1 where id = $2`, [name, merchantId], DATABASE);
  /** A successful payment to the merchant's NMID, reported by the demo bank (intake writes the primary). */
  const pay = async (id: string) => {
    const res = await rest.inject({
      method: 'POST',
      url: '/psp/v1/events',
      ...demoBankEventRequest({ nmid: NMID, external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: 25_000 }),
    });
    expect(res.statusCode).toBe(200);
  };
  const paymentsOnReplica = async () =>
    Number(
      (
        await replica.query<{ n: string }>(
          `select count(*) as n from "transaction".transactions where merchant_id = $1`,
          [merchantId],
          DATABASE,
        )
      )[0].n,
    );

  const partnerList = async () => {
    const from = Date.now();
    const res = await rest.inject({
      method: 'GET',
      url: `/api/partner/v1/merchants/${merchantId}/transactions`,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, text: res.body, ms: Date.now() - from };
  };
  const byNmid = async () => {
    const target = `/api/psp/v1/merchants/by-nmid/${NMID}`;
    const timestamp = new Date().toISOString();
    const signature = createHmac('sha256', DEMO.bank.lookupSecret).update(`GET\n${target}\n${timestamp}\n`).digest('hex');
    const headers = { 'x-api-key-id': DEMO.bank.lookupKeyId, 'x-timestamp': timestamp, 'x-signature': signature };
    return rest.inject({ method: 'GET', url: target, headers });
  };
  /** Waits until `done` holds, at most `ms`. */
  async function waitFor(what: string, done: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms; logs: ${JSON.stringify(logs.slice(-10))}`);
      await sleep(50);
    }
  }
  const switches = (msg: string) => logs.filter((line) => line.msg === msg && line.subgraph === 'transaction').length;

  /** Replay paused right after a commit the replica replayed, then a payment and a rename on the primary only. */
  async function pausedWrites(payment: string, name: string): Promise<void> {
    await heartbeat();
    await caughtUp();
    await replica.query('select pg_wal_replay_pause()');
    while ((await replica.query<{ state: string }>('select pg_get_wal_replay_pause_state() as state'))[0].state !== 'paused')
      await sleep(10);
    await pay(payment);
    await rename(name);
  }

  beforeAll(async () => {
    folder = await serverFolder('read-replica-');
    const [primaryPort, replicaPort] = await freePorts(2);
    primary = await PostgresServer.init(path.join(folder, 'primary'), primaryPort);
    await primary.start();
    await primary.query('create table heartbeat (at timestamptz)');
    replica = await PostgresServer.standbyOf(primary, path.join(folder, 'replica'), replicaPort, 'replica1');
    await replica.start();

    const adminUrl = primary.url(DATABASE);
    await prepareDatabase(adminUrl);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: adminUrl,
      DATABASE_READ_URL: replica.url(DATABASE),
      DB_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      GATEWAY_TIMEOUT_MS: String(GATEWAY_TIMEOUT_MS),
      DB_POOL_MAX: '3',
      JOBS_CONCURRENCY: '0',
    });
    await createPartner(config, adminUrl, { code: 'PRR', name: 'Partner Replika', referralCode: 'PRRREF' });
    merchantId = (
      await onboardMerchant(config, adminUrl, {
        name: 'Toko Replika 0',
        bankCode: DEMO.bank.code,
        nmids: [NMID],
        outlets: 1,
        referralCode: 'PRRREF',
      })
    ).merchant_id;
    const key = await issuePartnerCredential(config, adminUrl, {
      partnerCode: 'PRR',
      name: 'replica',
      contract: 'A',
      scopes: ['merchant.read', 'transaction.read'],
      mode: 'jwt',
    });
    await caughtUp();

    rest = await createRestApp({
      config,
      adapters: REST_ADAPTERS,
      logStream: { write: (line: string) => void logs.push(JSON.parse(line)) },
      operations: restOperations(config, { subgraphs: { transport: 'embedded', definitions: SUBGRAPHS } }),
    });
    await rest.ready();
    const res = await rest.inject({
      method: 'POST',
      url: '/api/partner/v1/auth/token',
      payload: { credential_key: key.credential_key, credential_secret: key.credential_secret },
    });
    expect(res.statusCode).toBe(200);
    token = res.json().access_token;
    // The first poll found the replica fit; the operation planned once.
    await waitFor('reads on the replica', () => switches('lag-tolerant reads on the read replica') > 0);
    await pay('rr-0');
    await caughtUp();
    expect((await partnerList()).text).toContain('TRX-rr-0');
  }, 170_000);

  afterAll(async () => {
    await rest?.close();
    await Promise.all([replica?.stop(), primary?.stop()]);
    if (folder) await removeFolders(folder);
  });

  it('reads the replica while it lags less than the bound; a bank lookup by NMID reads the primary', async () => {
    await pausedWrites('rr-1', 'Toko Replika 1');
    const list = await partnerList();
    expect(list.status).toBe(200);
    // Still the replica's (replay paused): the new payment is not listed yet.
    expect(list.text).toContain('TRX-rr-0');
    expect(list.text).not.toContain('TRX-rr-1');
    const lookup = await byNmid();
    expect(lookup.statusCode).toBe(200);
    expect(lookup.body).toContain('Toko Replika 1');
  });

  it('falls back to the primary once the lag passes DB_REPLICA_MAX_LAG_MS, and back to the replica when it replays again', async () => {
    const fallbacks = switches('lag-tolerant reads on the primary');
    const from = Date.now();
    let list = await partnerList();
    while (!list.text.includes('TRX-rr-1')) {
      expect(Date.now() - from).toBeLessThan(MAX_LAG_MS + 5000);
      await sleep(250);
      list = await partnerList();
    }
    expect(list.status).toBe(200);
    // The primary answered: the replica has still not replayed the payment.
    expect(await paymentsOnReplica()).toBe(1);
    expect(switches('lag-tolerant reads on the primary')).toBe(fallbacks + 1);

    const backBefore = switches('lag-tolerant reads on the read replica');
    await replica.query('select pg_wal_replay_resume()');
    await caughtUp();
    await waitFor('reads back on the replica', () => switches('lag-tolerant reads on the read replica') > backBefore);
    expect(await paymentsOnReplica()).toBe(2);
    // On the replica again: paused once more, a third payment is not listed yet.
    await pausedWrites('rr-2', 'Toko Replika 2');
    const again = await partnerList();
    expect(again.status).toBe(200);
    expect(again.text).toContain('TRX-rr-1');
    expect(again.text).not.toContain('TRX-rr-2');
    await replica.query('select pg_wal_replay_resume()');
    await caughtUp();
  });

  it('the replica stopped: the partner’s transaction page answers 200 from the primary (503 with the error body at most within a poll)', async () => {
    const onReplica = () => logs.filter((line) => line.subgraph === 'transaction').at(-1)?.msg === 'lag-tolerant reads on the read replica';
    await waitFor('reads on the replica', onReplica);
    const fallbacks = switches('lag-tolerant reads on the primary');
    // Requests all along the stop (pg_ctl's fast shutdown ends the replica's sessions) and 6 s after it.
    let stoppedAt: number | undefined;
    const stopping = replica.stop().then(() => (stoppedAt = Date.now()));
    const answers: { status: number; text: string; ms: number; at: number }[] = [];
    let firstOkAfterStop: number | undefined;
    while (stoppedAt === undefined || Date.now() < stoppedAt + SETTLED_MS + 3000) {
      const at = Date.now();
      const answer = { ...(await partnerList()), at };
      answers.push(answer);
      if (answer.status === 200 && stoppedAt !== undefined) firstOkAfterStop ??= Date.now() - stoppedAt;
      // The partner API allows a credential 60 requests a minute.
      await sleep(1000);
    }
    await stopping;
    for (const answer of answers) {
      expect([200, 503]).toContain(answer.status);
      expect(answer.ms).toBeLessThan(ANSWER_LIMIT_MS);
      if (answer.status === 503) expect(JSON.parse(answer.text)).toEqual(expect.objectContaining({ error: expect.any(String) }));
      else expect(answer.text).toContain('TRX-rr-2');
    }
    // Once the polls have seen it gone (a poll each second, each given a second), every answer is 200.
    const settled = answers.filter((answer) => answer.at >= stoppedAt! + SETTLED_MS);
    expect(settled.length).toBeGreaterThan(0);
    expect(settled.filter((answer) => answer.status !== 200).map((answer) => [answer.at - stoppedAt!, answer.status, answer.text])).toEqual(
      [],
    );
    expect(switches('lag-tolerant reads on the primary')).toBe(fallbacks + 1);
    console.log(
      `read-replica: replica stopped, first 200 after ${firstOkAfterStop} ms; ${answers.filter((a) => a.status === 503).length} x 503 of ${answers.length}`,
    );
  });
});
