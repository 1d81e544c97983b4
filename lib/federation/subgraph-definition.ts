import type { Constructor, MigrationObject } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Config, SubgraphName } from '../config/config';
import { subgraphDatabaseUrl } from '../db/database-urls';
import { type Orm, createOrm } from '../db/orm';
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
   * Process resources the request scope or the process uses (a Redis publisher, a LISTEN relay), opened with the
   * server on its database URL; returns their closer.
   */
  open?(config: Config, log: FastifyInstance['log'], databaseUrl: string): () => Promise<void>;
}

export async function openSubgraphOrm(definition: SubgraphDefinition, config: Config, adminUrl?: string): Promise<Orm> {
  return createOrm({
    subgraph: definition.name,
    clientUrl: subgraphDatabaseUrl(config, definition.name, adminUrl),
    entities: definition.entities,
    migrations: definition.migrations,
    poolMax: config.database.poolMax,
  });
}

/** Builds the subgraph's HTTP server on its own ORM (closed with the server). */
export async function createSubgraphApp(
  definition: SubgraphDefinition,
  config: Config,
  options: { adminUrl?: string; logStream?: LogStream } = {},
): Promise<FastifyInstance> {
  const [schema, orm] = await Promise.all([definition.buildSchema(), openSubgraphOrm(definition, config, options.adminUrl)]);
  const app = await createSubgraphServer({
    name: definition.name,
    config,
    schema,
    orm,
    requestScope: definition.requestScope,
    logStream: options.logStream,
  });
  const close = definition.open?.(config, app.log, subgraphDatabaseUrl(config, definition.name, options.adminUrl));
  if (close) app.addHook('onClose', close);
  return app;
}
