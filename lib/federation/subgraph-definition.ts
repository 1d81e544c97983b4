import type { Constructor, MigrationObject } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { TaskList } from 'graphile-worker';
import type { GraphQLSchema } from 'graphql';
import type { Registry } from 'prom-client';
import type { Config, SubgraphName } from '../config/config';
import { subgraphDatabaseUrl, subgraphDirectDatabaseUrl, subgraphReadDatabaseUrl } from '../db/database-urls';
import { type Orm, createOrm } from '../db/orm';
import { JobWorker } from '../jobs/job-worker';
import { registerQueueMetrics } from '../jobs/queue-metrics';
import type { LogStream } from '../logging/logger';
import { createSubgraphServer } from './subgraph-server';

/** Everything the shared tooling (process runner, migrations, composition, seeds) needs of a subgraph. */
export interface SubgraphDefinition<Scope extends object = object> {
  name: SubgraphName;
  entities: Constructor[];
  migrations: MigrationObject[];
  buildSchema(): Promise<GraphQLSchema>;
  requestScope: (em: EntityManager, config: Config) => Scope;
  /** Idempotent demo data for `npm start` and `ops seed:demo`; returns rows written per table. */
  seedDemo(em: EntityManager, config: Config): Promise<Record<string, number>>;
  /**
   * Resources its requests use (a Redis publisher), opened on its database URL wherever they run: in its own process,
   * and in the REST process with REST_SUBGRAPHS=in-process (embedded-subgraph.ts); returns their closer.
   */
  open?(config: Config, log: FastifyInstance['log'], databaseUrl: string): () => Promise<void>;
  /** Background work of its own process only (a LISTEN relay), opened with its server on its direct URL; returns its closer. */
  background?(config: Config, log: FastifyInstance['log'], databaseUrl: string): () => Promise<void>;
  /**
   * The tasks this subgraph's process runs from the job queue (docs/decisions/0031-webhooks-and-job-queue.md): a worker starts with
   * the server when JOBS_CONCURRENCY > 0 and stops before it closes. `concurrency`: the most jobs the process runs at
   * once, when its tasks need fewer than JOBS_CONCURRENCY (each job is a connection). `start`: once the worker runs
   * (e.g. making sure a recurring job is queued); a failure is logged, not fatal.
   */
  jobs?(context: JobContext): { tasks: TaskList; concurrency?: number; start?(): Promise<void>; close?(): Promise<void> };
}

/** What a subgraph's job handlers run on: its ORM (its own role), its log and its process's metrics. */
export interface JobContext {
  config: Config;
  orm: Orm;
  log: FastifyInstance['log'];
  metrics: Registry;
}

const schemas = new WeakMap<SubgraphDefinition, Promise<GraphQLSchema>>();

/** The subgraph's schema, built once per process: its server and a copy embedded in the same process share it. */
export function subgraphSchema(definition: SubgraphDefinition): Promise<GraphQLSchema> {
  let schema = schemas.get(definition);
  if (!schema) schemas.set(definition, (schema = definition.buildSchema()));
  return schema;
}

export async function openSubgraphOrm(definition: SubgraphDefinition, config: Config, adminUrl?: string): Promise<Orm> {
  return createOrm({
    subgraph: definition.name,
    clientUrl: subgraphDatabaseUrl(config, definition.name, adminUrl),
    entities: definition.entities,
    migrations: definition.migrations,
    poolMax: config.database.poolMax,
    poolIdleMs: config.database.poolIdleMs,
    namedStatements: config.database.namedStatements,
  });
}

/**
 * The subgraph's ORM on its streaming replica (lib/db/read-replica.ts) when a read URL is configured, else undefined.
 * It connects at its first query: a replica that is down at start leaves the reads on the primary.
 */
export async function openReplicaOrm(definition: SubgraphDefinition, config: Config): Promise<Orm | undefined> {
  const clientUrl = subgraphReadDatabaseUrl(config, definition.name);
  if (!clientUrl) return undefined;
  return createOrm({
    subgraph: definition.name,
    clientUrl,
    entities: definition.entities,
    migrations: definition.migrations,
    poolMax: config.database.poolMax,
    poolIdleMs: config.database.poolIdleMs,
    namedStatements: config.database.namedStatements,
    connect: false,
  });
}

/** Builds the subgraph's HTTP server on its own ORM (closed with the server). */
export async function createSubgraphApp(
  definition: SubgraphDefinition,
  config: Config,
  options: { adminUrl?: string; logStream?: LogStream } = {},
): Promise<FastifyInstance> {
  const [schema, orm, replicaOrm] = await Promise.all([
    subgraphSchema(definition),
    openSubgraphOrm(definition, config, options.adminUrl),
    openReplicaOrm(definition, config),
  ]);
  const app = await createSubgraphServer({
    name: definition.name,
    config,
    schema,
    orm,
    replicaOrm,
    requestScope: definition.requestScope,
    logStream: options.logStream,
  });
  const databaseUrl = subgraphDatabaseUrl(config, definition.name, options.adminUrl);
  // Background work LISTENs: a server connection of its own, never through a pooler in transaction mode.
  const directUrl = subgraphDirectDatabaseUrl(config, definition.name, options.adminUrl);
  for (const close of [definition.open?.(config, app.log, databaseUrl), definition.background?.(config, app.log, directUrl)]) {
    if (close) app.addHook('onClose', close);
  }
  if (definition.jobs && config.jobs.concurrency > 0) {
    const log = app.log.child({ component: 'jobs' });
    const jobs = definition.jobs({ config, orm, log, metrics: app.metricsRegistry });
    const worker = new JobWorker({
      connectionString: directUrl,
      concurrency: Math.min(config.jobs.concurrency, jobs.concurrency ?? Infinity),
      pollIntervalMs: config.jobs.pollIntervalMs,
      recoverySecs: config.jobs.recoverySecs,
      poolIdleMs: config.database.poolIdleMs,
      tasks: jobs.tasks,
      log,
    });
    registerQueueMetrics(app.metricsRegistry, async (sql) => (await orm.em.getKnex().raw(sql)).rows);
    app.addHook('onReady', async () => {
      worker.start();
      await jobs.start?.().catch((error: unknown) => log.error({ err: error }, 'job worker start task failed'));
    });
    // Before the server and its ORM close: running jobs finish and record their outcome.
    app.addHook('preClose', async () => {
      await worker.stop();
      await jobs.close?.();
    });
  }
  return app;
}
