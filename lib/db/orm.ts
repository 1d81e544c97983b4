import { MikroORM, type Constructor, type MigrationObject } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { SubgraphName } from '../config/config';
import { SCHEMA_OF } from './database-urls';
import { NAMED_STATEMENTS } from './plain-rows';

export type Orm = MikroORM<PostgreSqlDriver>;

export interface OrmOptions {
  subgraph: SubgraphName;
  clientUrl: string;
  entities: Constructor[];
  migrations: MigrationObject[];
  poolMax: number;
  /** A connection idle this long is closed, ms. */
  poolIdleMs: number;
  /** false: `preparedRows` runs its statements unnamed (behind a pooler in transaction mode without prepared statements). */
  namedStatements?: boolean;
  /** false: no connection at start (a replica may be down then; its pool connects at the first query). */
  connect?: boolean;
}

/**
 * MikroORM for one subgraph: its own schema, entities and committed migrations (listed explicitly, so
 * the build output needs no file globbing; run by ./migrate.ts). No global context: every request forks its own
 * EntityManager.
 */
export async function createOrm(options: OrmOptions): Promise<Orm> {
  return MikroORM.init<PostgreSqlDriver>({
    driver: PostgreSqlDriver,
    clientUrl: options.clientUrl,
    connect: options.connect ?? true,
    schema: SCHEMA_OF[options.subgraph],
    entities: options.entities,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: options.poolMax, idleTimeoutMillis: options.poolIdleMs, acquireTimeoutMillis: 5000 },
    // `namedStatements` travels in knex's own config, where rowsOf (lib/db/plain-rows.ts) reads it.
    driverOptions: { connection: { connectionTimeoutMillis: 5000 }, [NAMED_STATEMENTS]: options.namedStatements ?? true },
    migrations: {
      migrationsList: options.migrations,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    discovery: { warnWhenNoEntities: false },
    debug: false,
  });
}

/** A cheap liveness probe of the subgraph's connection pool. */
export async function pingDatabase(orm: Orm): Promise<void> {
  await orm.em.getConnection().execute('select 1');
}
