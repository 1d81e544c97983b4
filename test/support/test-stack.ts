import type { FastifyInstance } from 'fastify';
import { type Config, SUBGRAPH_NAMES, type SubgraphName, loadConfig } from '@lib/config/config';
import { createSubgraphApp } from '@lib/federation/subgraph-definition';
import { createRestApp } from '@lib/rest/rest-app';
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
  const rest = await createRestApp({
    config: restConfig,
    adapters: REST_ADAPTERS,
    gateway: restGateway(restConfig, subgraphUrls),
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
    restartSubgraph: (name) => startSubgraph(name, Number(new URL(subgraphs[name].url).port)),
    close: async () => {
      await rest.close();
      await gateway.close();
      await Promise.all(Object.values(subgraphs).map(({ app }) => app.close()));
      await database.drop();
    },
  };
}
