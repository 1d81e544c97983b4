import type { FastifyInstance } from 'fastify';
import { type Config, SUBGRAPH_NAMES, type SubgraphName, loadConfig } from '@lib/config/config';
import { createSubgraphApp } from '@lib/federation/subgraph-definition';
import type { Orm } from '@lib/db/orm';
import type { OperationExecutor } from '@lib/rest/gateway-client';
import { createRestApp } from '@lib/rest/rest-app';
import { InProcessGateway } from '@gateway/src/in-process';
import { createGatewayApp } from '@gateway/src/app';
import { REST_ADAPTERS } from '@rest-adapters';
import { restGateway } from '@rest-adapters/gateway';
import { SUBGRAPHS } from '@subgraphs';
import { type TestDatabase, cloneTemplateDatabase } from './test-database';

export interface LogLine {
  service: string;
  reqId?: string;
  msg?: string;
  [key: string]: unknown;
}

export interface TestStack {
  config: Config;
  database: TestDatabase;
  rest: FastifyInstance;
  gateway: FastifyInstance;
  gatewayUrl: string;
  subgraphs: Record<SubgraphName, { app: FastifyInstance; url: string }>;
  /** Every log line of every process, parsed. */
  logs: LogLine[];
  /** Fetches REST's query plans have sent to a subgraph so far (over HTTP, or to its copy inside REST). */
  restFetches(subgraph: SubgraphName): Promise<number>;
  /** The ORM that answers REST's fetches to a subgraph: REST's own copy with REST_SUBGRAPHS=in-process, else the subgraph's. */
  restOrm(subgraph: SubgraphName): Orm;
  /**
   * Runs a fixed operation the way REST's adapters do, through REST's own executor (its planner and embedded
   * subgraphs), acting as `options.acting`: e.g. an adapter asking wrongly (test/security/bank-scope.test.ts).
   */
  execute: OperationExecutor['execute'];
  /** Starts a subgraph again (after a test stopped it) on its former port. */
  restartSubgraph(name: SubgraphName): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole system in this process on ephemeral ports, over a private clone of the seeded template
 * database: four subgraphs, the gateway and the REST app (used through `inject` or its listening port).
 */
export async function startTestStack(env: Record<string, string> = {}): Promise<TestStack> {
  const database = await cloneTemplateDatabase();
  const logs: LogLine[] = [];
  const logStream = { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) };
  const base = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: database.adminUrl, ...env };
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
  const subgraphUrls = Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, subgraphs[name].url]));
  const gateway = await createGatewayApp({ config, subgraphUrls, logStream });
  const gatewayUrl = `${await gateway.listen({ host: '127.0.0.1', port: 0 })}/graphql`;
  const restConfig = loadConfig({ ...base, GATEWAY_URL: gatewayUrl });
  const inProcess = restGateway(restConfig, subgraphUrls);
  let executor: OperationExecutor | undefined;
  const rest = await createRestApp({
    config: restConfig,
    adapters: REST_ADAPTERS,
    gateway: inProcess && (async (app) => (executor = await inProcess(app))),
    logStream,
  });
  await rest.ready();

  return {
    config: restConfig,
    database,
    rest,
    gateway,
    gatewayUrl,
    subgraphs,
    logs,
    restFetches: async (subgraph) => {
      const text = await rest.metricsRegistry.metrics();
      const series = new RegExp(`^subgraph_fetch_duration_seconds_count\\{[^}]*subgraph="${subgraph}"[^}]*\\} (\\d+)`, 'gm');
      return [...text.matchAll(series)].reduce((sum, m) => sum + Number(m[1]), 0);
    },
    restOrm: (subgraph) =>
      (executor instanceof InProcessGateway ? executor.embedded.find((e) => e.name === subgraph)?.orm : undefined) ??
      subgraphs[subgraph].app.orm!,
    execute: (operation, variables, options) => {
      if (!executor) throw new Error('REST runs no executor of its own here (REST_GATEWAY=http)');
      return executor.execute(operation, variables, options);
    },
    restartSubgraph: (name) => startSubgraph(name, Number(new URL(subgraphs[name].url).port)),
    close: async () => {
      await rest.close();
      await gateway.close();
      await Promise.all(Object.values(subgraphs).map(({ app }) => app.close()));
      await database.drop();
    },
  };
}
