import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { DEV_SECRETS, type ProcessName, SUBGRAPH_NAMES, loadConfig, localMetricsPort } from '@lib/config/config';
import { SERVER_NODE_FLAGS } from '@lib/config/node-flags';
import { openDatabaseTarget } from '@lib/db/database-target';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { migrateAll, seedReferenceAndDemo } from './database-tasks';

/**
 * `npm start`: database (embedded unless DATABASE_URL), migrations, reference and demo data, then the four
 * subgraphs, the gateway and the REST adapters as child processes. Ctrl-C stops them all, then the database; a
 * child that dies unexpectedly stops everything the same way and `npm start` exits 1 (no restart: a dead child is
 * a fault to see, README "Start and test").
 */
const DIST = path.resolve(__dirname, '..');
const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Development on a terminal: the processes' JSON log lines made readable by pino-pretty (one line each, local time,
 * `[service] message` and the other fields). Otherwise — production, or output to a file or a pipe, as in CI — the
 * lines pass as the JSON they are. pino-pretty is a dev dependency: without it (`npm ci --omit=dev`), JSON too.
 */
async function prettyLogs(config: ReturnType<typeof loadConfig>): Promise<((line: string) => string) | undefined> {
  if (config.env === 'production' || !process.stdout.isTTY) return undefined;
  try {
    const { prettyFactory } = await import('pino-pretty');
    const format = prettyFactory({
      colorize: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service',
      messageFormat: '[{service}] {msg}',
    });
    return (line) => (line.startsWith('{') ? format(line) : `${line}\n`);
  } catch {
    return undefined;
  }
}

/** When a child last wrote a line (pretty mode): the banner waits for a quiet moment, so that it comes last. */
let lastLineAt = 0;

async function quietFor(ms: number, atMostMs: number): Promise<void> {
  const until = Date.now() + atMostMs;
  while (Date.now() - lastLineAt < ms && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

/** How long children get to finish after SIGTERM before they are killed. */
const STOP_GRACE_MS = 5_000;

/** Child processes and the embedded server; everything that `stop` must bring down. */
const children: ChildProcess[] = [];
let embedded: { stop(): Promise<void> } | undefined;
let stopping = false;

/** Whether the child has not exited yet (a child killed by a signal has a signalCode and no exitCode). */
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    const live = children.filter(running);
    const exited = Promise.all(live.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    for (const child of live) child.kill('SIGTERM');
    const kill = setTimeout(() => live.filter(running).forEach((child) => child.kill('SIGKILL')), STOP_GRACE_MS);
    await exited;
    clearTimeout(kill);
    await embedded?.stop();
  }
  process.exit(code);
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  const config = loadConfig();
  const started = Date.now();
  const target = await openDatabaseTarget(config);
  embedded = target.embedded;
  log(`database: ${target.source}${target.embedded ? ` (data in ${path.resolve(config.database.dataDir)})` : ''}`);
  const migrations = await migrateAll(config, target.adminUrl);
  log(`migrations: ${Object.values(migrations).flat().length} applied`);
  const reference = await seedReferenceAndDemo(config, target.adminUrl);
  log(`reference data: ${reference.imports.map((i) => `${i.source} ${i.skipped ? 'unchanged' : `${i.rows} rows`}`).join(', ')}`);

  const pretty = await prettyLogs(config);
  const env = { ...process.env, DATABASE_URL: target.adminUrl, NODE_ENV: config.env };
  const launch = async (name: ProcessName, entry: string, port: number) => {
    const child = spawn(process.execPath, ['--enable-source-maps', ...SERVER_NODE_FLAGS, path.join(DIST, entry)], {
      env: { ...env, METRICS_PORT: String(localMetricsPort(config, name)) },
      stdio: ['ignore', pretty ? 'pipe' : 'inherit', 'inherit'],
    });
    if (pretty) {
      createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (line) => {
        lastLineAt = Date.now();
        process.stdout.write(pretty(line));
      });
    }
    children.push(child);
    child.once('exit', (code) => {
      if (!stopping) {
        log(`${name} exited (${code ?? child.signalCode}); stopping everything`);
        void stop(1);
      }
    });
    await waitForHealth(`http://${config.host}:${port}/health`, name);
    return `http://${config.host}:${port}`;
  };

  const addresses: [string, string][] = [];
  await Promise.all(
    SUBGRAPH_NAMES.map(async (name) => {
      addresses.push([`subgraph ${name}`, `${await launch(name, `subgraphs/${name}/src/main.js`, config.ports[name])}/graphql`]);
    }),
  );
  addresses.push(['gateway (GraphQL)', `${await launch('gateway', 'gateway/src/main.js', config.ports.gateway)}/graphql`]);
  const rest = await launch('rest', 'rest-adapters/main.js', config.ports.rest);
  addresses.push(
    ['REST APIs', rest],
    ['API reference', `${rest}/docs  (per audience: /docs/bank, /docs/partner, /docs/app, /docs/internal)`],
    ['OpenAPI', `${rest}/openapi.json  (per audience: /openapi/bank.json …)`],
  );
  if (config.ports.metrics !== 0) {
    addresses.push(['metrics (internal)', `http://${config.host}:${config.ports.metrics}-${localMetricsPort(config, 'catalog')}/metrics`]);
  }

  const usingDevSecrets = Object.entries(DEV_SECRETS)
    .filter(([key, value]) => process.env[key] === undefined || process.env[key] === value)
    .map(([key]) => key);
  // The banner comes last: after the start-up lines (the health checks' request lines come just after their answers).
  if (pretty) await quietFor(300, 2000);
  const rule = '─'.repeat(Math.min(process.stdout.columns || 100, 120));
  log('');
  if (pretty) log(rule);
  // `ready in` starts its line (CI's smoke test looks for it); bold and green on a terminal.
  log(
    pretty
      ? `\x1b[1;32mready in ${((Date.now() - started) / 1000).toFixed(1)} s\x1b[0m`
      : `ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [name, url] of addresses.sort()) log(`  ${name.padEnd(22)} ${url}`);
  log('');
  log('demo data and credentials (development only):');
  log(
    `  merchant              ${DEMO.merchantCode} (${DEMO.merchantId}), outlets ${DEMO.outlets.map((o) => `${o.code} NMID ${o.nmid}`).join(', ')}`,
  );
  for (const m of DEMO.otherMerchants) log(`  merchant              ${m.code} ${m.name}, NMIDs ${m.outlets.map((o) => o.nmid).join(', ')}`);
  log(`  X-Internal-API-Key    ${config.secrets.internalApiKey}`);
  for (const c of Object.values(DEMO.partner.credentials)) {
    log(
      `  partner ${DEMO.partner.code} (${c.contract})   credential_key ${c.credentialKey} / credential_secret ${c.secret} (POST ${rest}/api/partner/v1/auth/token)`,
    );
  }
  log(
    `  bank ${DEMO.bank.code} (tier 1)     lookup key ${DEMO.bank.lookupKeyId} / ${DEMO.bank.lookupSecret}, event key ${DEMO.bank.eventKeyId} / ${DEMO.bank.eventSecret}`,
  );
  log(`  app user (owner)      ${DEMO.owner.phone}: POST ${rest}/auth/request-otp {"phone":"${DEMO.owner.phone}"}, read the code with`);
  log(
    `                        \`npm run ops -- dev:outbox --phone ${DEMO.owner.phone}\`, then POST ${rest}/auth/verify-otp {request_id, phone, code}`,
  );
  log(`  operator (GraphQL)     \`npm run ops -- operator:token --name you --roles admin\` → Authorization: Bearer <token> at the gateway`);
  log(`  partner data          referred merchants with ~13 months of transactions and settlements; outlet endpoints enabled`);
  const sandbox = DEMO.sandbox;
  log(
    `  sandbox               ${sandbox.merchantCode} ${sandbox.merchantName}, NMIDs ${sandbox.outlets.map((o) => o.nmid).join(', ')}, owner ${sandbox.owner.phone}; a simulated bank payment:`,
  );
  log(
    `                        curl -X POST ${rest}/internal/sandbox/payment-events -H 'X-Internal-API-Key: <above>' -H 'content-type: application/json' -d '{"nmid":"${sandbox.outlets[0].nmid}","amount":25000}'`,
  );
  log(`  try                   curl '${rest}/references/cities?province_id=31'`);
  if (usingDevSecrets.length > 0)
    log(`  development defaults in use for: ${usingDevSecrets.join(', ')} (set them for anything but development)`);
  log('Ctrl-C stops everything.');
  if (pretty) log(rule);
}

/** A child that crashes stops everything at once (above); a slow one gets 2 minutes (a loaded 2-core machine boots six). */
async function waitForHealth(url: string, name: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const { statusCode, body } = await request(url);
      await body.dump();
      if (statusCode < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not become healthy at ${url} within ${timeoutMs / 1000} s`);
}

main().catch((error: Error) => {
  process.stderr.write(`start failed: ${error.message}\n`);
  void stop(1);
});
