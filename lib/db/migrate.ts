import { Migrator } from '@mikro-orm/migrations';
import type { Orm } from './orm';

/**
 * Applies the subgraph's pending migrations (OrmOptions.migrations); returns the names applied. The migrator (and
 * umzug under it) is loaded only by what migrates: the migration tasks, not every process and test that opens an ORM.
 */
export async function migrate(orm: Orm): Promise<string[]> {
  Migrator.register(orm);
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
