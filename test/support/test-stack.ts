import type { FastifyInstance } from 'fastify';
import { type Config, SUBGRAPH_NAMES, type SubgraphName, loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { EmbeddedSubgraph } from '@lib/federation/embedded-subgraph';
import { createSubgraphApp } from '@lib/federation/subgraph-definition';
import { createRestApp } from '@lib/rest/rest-app';
import type { OperationExecutor } from '@lib/rest/operation-executor';
import type { RestAdapter } from '@lib/rest/route';
import type { LogStream } from '@lib/logging/logger';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { createGatewayApp } from '@gateway/src/app';
import type { SubgraphTransportChoice } from '@gateway/src/executor';
import { REST_ADAPTERS } from '@rest-adapters';
import { restOperations } from '@rest-adapters/gateway';
import { SUBGRAPHS } from '@subgraphs';
import { type TestDatabase, cloneTemplateDatabase } from './test-database';

export interface LogLine {
  service: string;
  reqId?: string;
  msg?: string;
  [key: string]: unknown;
}

export interface TestStackOptions {
  /**
   * `in-process`: the gateway and REST run the subgraphs in this process, on the subgraph servers' ORMs;
   * `http`: they fetch from the subgraph servers' HTTP endpoints (tests about that hop). Defaults to REST_SUBGRAPHS.
   */
  subgraphs?: 'in-process' | 'http';
  /**
   * Whether the gateway and REST plan every operation at start, as in production (GraphExecutorOptions.warmUp): off by
   * default, since a test file runs a few operations and warming costs 0.6-0.9 s of every stack's start.
   */
  warmUp?: boolean;
  /** A stack of the caller's own even where its Jest file shares stacks (`shareStacks`): for a spec that changes or stops part of it. */
  own?: boolean;
  /**
   * Settings only the gateway, or only REST, reads (e.g. GATEWAY_MAX_DEPTH, LIVE_POLL_MS): that tier of its own with
   * them, on the default stack (the file's shared one), not a whole stack: 3–5 CPU s less.
   */
  onlyIn?: 'gateway' | 'rest';
}

export interface TestStack {
  config: Config;
  database: TestDatabase;
  rest: FastifyInstance;
  gateway: FastifyInstance;
  gatewayUrl: string;
  /** Each subgraph's server: its HTTP endpoint, its job worker and background relays, its ORM. */
  subgraphs: Record<SubgraphName, { app: FastifyInstance; url: string }>;
  /** Each subgraph server's /graphql URL. */
  subgraphUrls(): Record<SubgraphName, string>;
  /** REST's base URL on a port of its own, listening at the first call (specs sharing the stack share the port). */
  restUrl(): Promise<string>;
  /** Every log line of every server, parsed. */
  logs: LogLine[];
  /** Fetches REST's query plans have sent to a subgraph so far. */
  restFetches(subgraph: SubgraphName): Promise<number>;
  /** The ORM that answers a subgraph's fetches (its server's, shared by the subgraph run in process). */
  restOrm(subgraph: SubgraphName): Orm;
  /** A further REST app on this stack's subgraphs, with its own configuration (closed by the caller; REST's adapters and the stack's log lines unless given). */
  startRestApp(config: Config, options?: { adapters?: RestAdapter[]; logStream?: LogStream }): Promise<FastifyInstance>;
  /** Starts a subgraph's server again (after a test stopped it) on its former port. */
  /**
   * Runs a fixed operation the way REST's adapters do, through REST's own executor (its planner and the subgraphs),
   * acting as `options.acting`: e.g. an adapter asking wrongly (test/security/bank-scope.spec.ts).
   */
  execute: OperationExecutor['execute'];
  restartSubgraph(name: SubgraphName): Promise<void>;
  /** A gateway or a REST app of its own on this stack's subgraphs, with `env` over this stack's settings (`onlyIn`). */
  tierOfItsOwn(tier: 'gateway' | 'rest', env: Record<string, string>): Promise<Partial<TestStack> & { close(): Promise<void> }>;
  close(): Promise<void>;
}

/** The stacks a Jest file's specs share, by configuration; unset where each call starts its own. */
let shared: Map<string, { stack: Promise<TestStack>; users: number }> | undefined;
/** The fixtures a Jest file's specs share (`fileFixture`), by name; set with `shared`. */
let fixtures: Map<string, Promise<{ stop(): Promise<void> }>> | undefined;
/** The default configuration's key in `shared`. */
const DEFAULT_KEY = JSON.stringify([[], '', false]);

/**
 * Makes the specs of this Jest file share stacks: a spec asking for a configuration another spec of the file has
 * started (the default one above all) gets that stack, and its `close` leaves it running. The default stack stays up
 * until the file's last `afterAll`; a stack of other settings until a spec asks for yet other settings while none of
 * its specs is running. `own: true` gives a stack of the caller's own. An area's Jest file (e.g. test/e2e/bank.test.ts)
 * calls this and imports its specs, so that their module graph is loaded once and each stack started once, not once
 * per spec (test/README.md).
 */
export function shareStacks(): void {
  const sharing: NonNullable<typeof shared> = new Map();
  const sharedFixtures: NonNullable<typeof fixtures> = new Map();
  shared = sharing;
  fixtures = sharedFixtures;
  afterAll(async () => {
    shared = undefined;
    fixtures = undefined;
    await Promise.all([...sharing.values()].map(async ({ stack }) => (await stack).close()));
    await Promise.all([...sharedFixtures.values()].map(async (fixture) => (await fixture).stop()));
  });
}

/**
 * A fixture of this Jest file's specs, started at its first use and stopped after the file's stacks where the file
 * shares stacks (`shareStacks`), else the caller's own, stopped by `release`: e.g. an identity provider whose URL is
 * one of a stack's settings, so that the specs that ask for that stack ask for the same settings.
 */
export async function fileFixture<T extends { stop(): Promise<void> }>(
  name: string,
  start: () => Promise<T>,
): Promise<{ fixture: T; release(): Promise<void> }> {
  if (!fixtures) {
    const fixture = await start();
    return { fixture, release: () => fixture.stop() };
  }
  if (!fixtures.has(name)) fixtures.set(name, start());
  return { fixture: (await fixtures.get(name)) as T, release: async () => undefined };
}

/**
 * The whole system in this process, over a private clone of the seeded template database: four subgraph servers (each
 * subgraph's ORM, jobs and HTTP endpoint), the gateway and the REST app (used through `inject` or its listening port),
 * on ephemeral ports. Each subgraph's ORM is opened once: the gateway's and REST's query plans run it in process
 * (docs/decisions/0009-how-operations-execute.md) unless `subgraphs: 'http'`. Where the Jest file shares stacks
 * (`shareStacks`), a call answers the stack of its configuration if one is running.
 */
export async function startTestStack(env: Record<string, string> = {}, options: TestStackOptions = {}): Promise<TestStack> {
  if (options.onlyIn) {
    const stack = await startTestStack();
    const tier = await stack.tierOfItsOwn(options.onlyIn, env);
    return {
      ...stack,
      ...tier,
      close: async () => {
        await tier.close();
        await stack.close();
      },
    };
  }
  if (!shared || options.own) return startStack(env, options);
  const key = JSON.stringify([Object.entries(env).sort(), options.subgraphs ?? '', options.warmUp ?? false]);
  let entry = shared.get(key);
  if (!entry) {
    const idle = [...shared].filter(([other, { users }]) => users === 0 && other !== DEFAULT_KEY);
    for (const [other, { stack }] of idle) {
      shared.delete(other);
      await (await stack).close();
    }
    shared.set(key, (entry = { stack: startStack(env, options), users: 0 }));
  }
  entry.users++;
  const using = entry;
  return {
    ...(await using.stack),
    close: async () => {
      using.users--;
    },
  };
}

async function startStack(env: Record<string, string>, options: TestStackOptions): Promise<TestStack> {
  const database = await cloneTemplateDatabase();
  const logs: LogLine[] = [];
  const logStream = { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) };
  // Tests run from the TypeScript sources; the operations threads' entry is built JavaScript (npm run test:resilience).
  const base = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    // Connections for two workers, each with its file's shared stack and a spec's own beside it, within PostgreSQL's 100:
    // small pools that close a connection idle for 2 s (80 sessions at peak; 1 s: 68, and more of PostgreSQL's CPU; 3 s:
    // 88; docs/decisions/0004-postgresql-for-development-and-tests.md).
    DB_POOL_MAX: '5',
    DB_POOL_IDLE_MS: '2000',
    JOBS_CONCURRENCY: '2',
    // The daily summary's send time half a day away, so that no stack sends one on its own while its tests run
    // (test/e2e/core-daily-summary.spec.ts queues its runs itself).
    DAILY_SUMMARY_SEND_AT: new ZonedCalendar('Asia/Makassar').iso(new Date(Date.now() + 12 * 3600_000)).slice(11, 16),
    // The same for the automatic suspension's daily run (test/e2e/core-automatic-suspension.spec.ts queues its runs itself).
    SUSPENSION_RUN_AT: new ZonedCalendar('Asia/Makassar').iso(new Date(Date.now() + 12 * 3600_000)).slice(11, 16),
    // And for the daily reconciliation's run (test/e2e/core-reconciliation.spec.ts runs its days itself).
    RECONCILIATION_RUN_AT: new ZonedCalendar('Asia/Jakarta').iso(new Date(Date.now() + 12 * 3600_000)).slice(11, 16),
    DATABASE_URL: database.adminUrl,
    ...env,
  };
  const config = loadConfig(base);

  const subgraphs = {} as TestStack['subgraphs'];
  const startSubgraph = async (name: SubgraphName, port = 0) => {
    const app = await createSubgraphApp(
      SUBGRAPHS.find((s) => s.name === name)!,
      config,
      { logStream },
    );
    const address = await app.listen({ host: '127.0.0.1', port });
    subgraphs[name] = { app, url: `${address}/graphql` };
  };
  await Promise.all(SUBGRAPH_NAMES.map((name) => startSubgraph(name)));
  const subgraphUrls = () => Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, subgraphs[name].url])) as Record<SubgraphName, string>;
  const overHttp = (options.subgraphs ?? config.restSubgraphs) === 'http';
  const embedded = overHttp
    ? []
    : await Promise.all(
        SUBGRAPHS.map(({ name }) => subgraphs[name].app).map((app, i) => EmbeddedSubgraph.open(SUBGRAPHS[i], config, app.log, app.orm)),
      );
  const transport: SubgraphTransportChoice = overHttp
    ? { transport: 'http', urls: subgraphUrls() }
    : { transport: 'embedded', shared: embedded };
  const { warmUp = false } = options;
  const gateway = await createGatewayApp({ config, subgraphs: transport, logStream, warmUp });
  const gatewayUrl = `${await gateway.listen({ host: '127.0.0.1', port: 0 })}/graphql`;
  const restConfig = loadConfig({ ...base, GATEWAY_URL: gatewayUrl });
  const startRestApp: TestStack['startRestApp'] = (appConfig, appOptions = {}) =>
    createRestApp({
      adapters: REST_ADAPTERS,
      logStream,
      ...appOptions,
      config: appConfig,
      operations: restOperations(appConfig, { subgraphs: transport, warmUp }),
    });
  /** A REST app on this stack's subgraphs: its URL once listening, the fetches its plans sent, its executor. */
  const restTier = async (appConfig: Config) => {
    let executor: OperationExecutor | undefined;
    const app = await createRestApp({
      config: appConfig,
      adapters: REST_ADAPTERS,
      logStream,
      operations: async (created) => (executor = await restOperations(appConfig, { subgraphs: transport, warmUp })(created)),
    });
    await app.ready();
    let url: Promise<string> | undefined;
    return {
      rest: app,
      restUrl: () => (url ??= app.listen({ host: '127.0.0.1', port: 0 })),
      restFetches: async (subgraph: SubgraphName) => {
        const text = await app.metricsRegistry.metrics();
        const series = new RegExp(`^subgraph_fetch_duration_seconds_count\\{[^}]*subgraph="${subgraph}"[^}]*\\} (\\d+)`, 'gm');
        return [...text.matchAll(series)].reduce((sum, m) => sum + Number(m[1]), 0);
      },
      execute: ((operation, variables, executeOptions) => executor!.execute(operation, variables, executeOptions)) as TestStack['execute'],
    };
  };
  const restApp = await restTier(restConfig);
  const rest = restApp.rest;

  return {
    config: restConfig,
    database,
    gateway,
    gatewayUrl,
    subgraphs,
    subgraphUrls,
    logs,
    ...restApp,
    startRestApp,
    restOrm: (subgraph) => subgraphs[subgraph].app.orm!,
    restartSubgraph: (name) => startSubgraph(name, Number(new URL(subgraphs[name].url).port)),
    tierOfItsOwn: async (tier, tierEnv) => {
      const tierConfig = loadConfig({ ...base, GATEWAY_URL: gatewayUrl, ...tierEnv });
      if (tier === 'rest') {
        const own = await restTier(tierConfig);
        return { config: tierConfig, ...own, close: () => own.rest.close() };
      }
      const own = await createGatewayApp({ config: tierConfig, subgraphs: transport, logStream, warmUp });
      const ownUrl = `${await own.listen({ host: '127.0.0.1', port: 0 })}/graphql`;
      return { config: tierConfig, gateway: own, gatewayUrl: ownUrl, close: () => own.close() };
    },
    close: async () => {
      await rest.close();
      await gateway.close();
      await Promise.all(embedded.map((subgraph) => subgraph.close()));
      await Promise.all(Object.values(subgraphs).map(({ app }) => app.close()));
      await database.drop();
    },
  };
}
