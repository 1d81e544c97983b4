import 'reflect-metadata';
import { createHmac, randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client as PgClient } from 'pg';
import { Agent, request } from 'undici';
import { signUserAccessToken } from '@lib/auth/user-token';
import { loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { HOST, envInt, percentile, progress, sleep, startBenchStack, stopAll } from './harness';

/**
 * `npm run bench:live`: "payment received, live" (issue 17 §3, docs/decisions/0202-live-payment-events.md). The
 * whole stack (start.js: every process on its own; with REDIS_URL or without, as `npm start`: the REST process is
 * woken by PostgreSQL's NOTIFY either way, or by the Redis signal with REST_SUBGRAPHS=http) with BENCH_LIVE_STREAMS (1,000) open
 * `GET /merchant/payments/events` streams of the demo merchant (BENCH_LIVE_USERS owners, streams spread over them),
 * while bank events (`transaction.success`, each a new id) arrive at the documented rate, 6,000/min (100/s, open
 * loop) for BENCH_LIVE_SECS. For every event and every stream: the time from the bank's 200 answer to the event on
 * that stream; p50/p95/p99/max over all of them, and the same from the moment the event was sent. Also checked:
 * every stream got every event exactly once.
 *
 * Requires DATABASE_URL (a dedicated database; the stack migrates it and loads demo data; this adds owners of the
 * demo merchant with sessions, and transactions). Progress on stderr; one JSON line on stdout, naming the mode.
 */
const SETTINGS = {
  streams: envInt('BENCH_LIVE_STREAMS', 1000),
  users: envInt('BENCH_LIVE_USERS', 100),
  ratePerSec: envInt('BENCH_LIVE_RATE', 100),
  secs: envInt('BENCH_LIVE_SECS', 20),
};
const OPEN_AT_ONCE = 50;
const PORTS = { rest: envInt('BENCH_REST_PORT', 18580), gateway: envInt('BENCH_GATEWAY_PORT', 14500) };
const REST = `http://${HOST}:${PORTS.rest}`;
const jakarta = () => new Date(Date.now() + 7 * 3600 * 1000).toISOString().replace('Z', '+07:00');

interface Sent {
  sentAt: number;
  answeredAt: number;
  status: number;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    progress('DATABASE_URL (a dedicated database) is required; REDIS_URL is optional (both modes are measured)');
    process.exit(2);
  }
  // One user may hold 10 streams (LIVE_MAX_STREAMS_PER_USER) and open 60 a minute: the streams are spread over users.
  const perUser = Math.ceil(SETTINGS.streams / SETTINGS.users);
  process.env.LIVE_MAX_STREAMS_PER_USER = String(Math.max(perUser, 10));
  const config = loadConfig();
  await startBenchStack({ databaseUrl, restPort: PORTS.rest, gatewayPort: PORTS.gateway });
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  const agent = new Agent({ connections: null, pipelining: 0, keepAliveTimeout: 60_000 });
  const sent = new Map<string, Sent>();
  /** Per stream: transaction code → arrival time. */
  const arrivals: Map<string, number>[] = [];
  const aborts: AbortController[] = [];
  try {
    progress(`adding ${SETTINGS.users} owners of the demo merchant with sessions …`);
    const tokens: string[] = [];
    for (let i = 0; i < SETTINGS.users; i++) {
      const userId = randomUUID();
      const sessionId = randomUUID();
      await pg.query(`insert into merchant.users (id, phone, created_at, updated_at) values ($1, $2, now(), now())`, [
        userId,
        `+62819${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      ]);
      await pg.query(
        `insert into merchant.merchant_users (id, merchant_id, user_id, role, outlet_ids, created_at) values ($1, $2, $3, 'owner', '{}', now())`,
        [randomUUID(), DEMO.merchantId, userId],
      );
      await pg.query(
        `insert into merchant.user_sessions (id, user_id, platform_code, auth_method, created_at, expires_at)
         values ($1, $2, 'mobile_app', 'otp', now(), now() + interval '1 day')`,
        [sessionId, userId],
      );
      tokens.push((await signUserAccessToken({ userId, sessionId }, config.secrets.userTokenSecret)).token);
    }

    progress(`opening ${SETTINGS.streams} streams …`);
    let opened = 0;
    // In waves of OPEN_AT_ONCE: each new stream's catch-up read is an operation, and the REST process sheds load past
    // 64 operations in flight per thread (503, rest-adapters/operations-thread.ts); clients reconnect in waves too.
    const openStream = (i: number, signal: AbortSignal) =>
      request(`${REST}/merchant/payments/events`, {
        dispatcher: agent,
        headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, accept: 'text/event-stream' },
        signal,
      });
    const openOne = async (i: number) => {
      const seen = new Map<string, number>();
      arrivals.push(seen);
      const abort = new AbortController();
      aborts.push(abort);
      // A 503 (load shed while earlier streams catch up) is retried shortly, as an EventSource client reconnects.
      let res = await openStream(i, abort.signal);
      for (let attempt = 1; res.statusCode === 503 && attempt <= 40; attempt++) {
        await res.body.dump();
        await sleep(250);
        res = await openStream(i, abort.signal);
      }
      if (res.statusCode !== 200) throw new Error(`stream ${i}: ${res.statusCode} ${await res.body.text()}`);
      opened += 1;
      let buffer = '';
      res.body.setEncoding('utf8');
      res.body.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const match = /"transaction_code":"([^"]+)"/.exec(frame);
          if (!match) continue;
          if (seen.has(match[1])) throw new Error(`stream ${i}: ${match[1]} twice`);
          seen.set(match[1], at);
        }
      });
      res.body.on('error', () => undefined);
    };
    for (let first = 0; first < SETTINGS.streams; first += OPEN_AT_ONCE) {
      await Promise.all(Array.from({ length: Math.min(OPEN_AT_ONCE, SETTINGS.streams - first) }, (_, k) => openOne(first + k)));
    }
    progress(`${opened} streams open; sending ${SETTINGS.ratePerSec} events/s for ${SETTINGS.secs} s …`);
    await sleep(1000);

    const total = SETTINGS.ratePerSec * SETTINGS.secs;
    const intervalMs = 1000 / SETTINGS.ratePerSec;
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let n = 0; n < total; n++) {
      const due = start + n * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const code = `LIVE-${randomUUID()}`;
      const raw = JSON.stringify({
        external_event_id: `evt-${code}`,
        event_type: 'transaction.success',
        nmid: DEMO.outlets[0].nmid,
        transaction_code: code,
        reference_number: `REF-${code}`,
        gross_amount: 10_000 + (n % 90_000),
        transaction_at: jakarta(),
        status: 'success',
      });
      const timestamp = jakarta();
      const signature = createHmac('sha256', DEMO.bank.eventSecret).update(`POST\n/psp/v1/events\n${timestamp}\n${raw}`).digest('hex');
      const sentAt = performance.now();
      inFlight.push(
        request(`${REST}/psp/v1/events`, {
          method: 'POST',
          dispatcher: agent,
          body: raw,
          headers: {
            'content-type': 'application/json',
            'x-psp-key-id': DEMO.bank.eventKeyId,
            'x-psp-timestamp': timestamp,
            'x-psp-signature': signature,
          },
        }).then(async (res) => {
          const answeredAt = performance.now();
          await res.body.dump();
          sent.set(code, { sentAt, answeredAt, status: res.statusCode });
        }),
      );
    }
    await Promise.all(inFlight);
    const okCodes = [...sent].filter(([, s]) => s.status === 200).map(([code]) => code);
    progress(`${okCodes.length}/${total} events answered 200; waiting for the streams …`);
    const deadline = performance.now() + 15_000;
    while (performance.now() < deadline && arrivals.some((seen) => okCodes.some((c) => !seen.has(c)))) await sleep(200);

    const fromAnswer = new Float64Array(okCodes.length * arrivals.length);
    const fromSend = new Float64Array(okCodes.length * arrivals.length);
    let k = 0;
    let missing = 0;
    for (const seen of arrivals) {
      for (const code of okCodes) {
        const at = seen.get(code);
        if (at === undefined) {
          missing += 1;
          continue;
        }
        const s = sent.get(code)!;
        fromAnswer[k] = at - s.answeredAt;
        fromSend[k] = at - s.sentAt;
        k += 1;
      }
    }
    const a = fromAnswer.subarray(0, k).sort();
    const b = fromSend.subarray(0, k).sort();
    const answers = Float64Array.from([...sent.values()].map((s) => s.answeredAt - s.sentAt)).sort();
    const ms = (sorted: Float64Array, p: number) => Math.round(percentile(sorted, p) * 10) / 10;
    const summary = {
      // What woke the REST process: NOTIFY when it runs the subgraphs (the default), else the Redis signal.
      redis: Boolean(config.redisUrl),
      rest_subgraphs: config.restSubgraphs,
      wake_up: config.restSubgraphs === 'in-process' ? 'postgres-notify' : config.redisUrl ? 'redis' : 'poll-only',
      live_poll_ms: config.live.pollMs,
      streams: arrivals.length,
      events: total,
      events_200: okCodes.length,
      rate_per_min: SETTINGS.ratePerSec * 60,
      deliveries: k,
      missing,
      // Events some stream never got (the first 20 transaction codes), to look them up in transaction.payment_feed.
      missing_codes: okCodes.filter((code) => arrivals.some((seen) => !seen.has(code))).slice(0, 20),
      bank_200_to_sse_ms: { p50: ms(a, 50), p95: ms(a, 95), p99: ms(a, 99), max: Math.round(a[a.length - 1] ?? 0) },
      bank_send_to_sse_ms: { p50: ms(b, 50), p95: ms(b, 95), p99: ms(b, 99), max: Math.round(b[b.length - 1] ?? 0) },
      bank_answer_ms: { p50: ms(answers, 50), p95: ms(answers, 95), p99: ms(answers, 99) },
      cpus: os.cpus().length,
      loadavg_1m: Math.round(os.loadavg()[0] * 100) / 100,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    for (const abort of aborts) abort.abort();
    await agent.close().catch(() => undefined);
    await pg.end();
    await stopAll();
  }
}

main().catch(async (error) => {
  progress(String(error?.stack ?? error));
  await stopAll();
  process.exit(1);
});
