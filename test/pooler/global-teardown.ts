import { SUBGRAPH_NAMES, loadConfig } from '@lib/config/config';
import { roleOf } from '@lib/db/database-urls';
import globalTeardown from '../support/global-teardown';

/** Fails the run if nothing went through PgBouncer (the pools bypassed it); then stops it and the normal teardown. */
export default async function poolerGlobalTeardown(): Promise<void> {
  const bouncer = globalThis.__qrisTestPgBouncer;
  try {
    if (bouncer) {
      const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
      const stats = await bouncer.stats(roleOf(config, SUBGRAPH_NAMES[0]), config.database.rolePassword);
      process.stderr.write(`PgBouncer (transaction mode) passed on ${stats.transactions} transactions, ${stats.queries} queries\n`);
      if (stats.transactions === 0) throw new Error('no transaction went through PgBouncer');
    }
  } finally {
    await bouncer?.stop();
    await globalTeardown();
  }
}
