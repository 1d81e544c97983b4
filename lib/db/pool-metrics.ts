import type { MikroORM } from '@mikro-orm/postgresql';
import { Gauge, type Registry } from 'prom-client';

/** The tarn pool under knex: how many connections are lent out, idle, and how many callers wait for one. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/**
 * `db_pool_connections{state}` of a subgraph's connection pool, read at each scrape: `used`, `idle`, `waiting`
 * (callers queued for a connection: the first sign the pool, not PostgreSQL, is the wall) and `max`.
 */
export function registerPoolMetrics(registry: Registry, orm: MikroORM): void {
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of this process pool to PostgreSQL by state (used, idle, waiting callers, max)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = (orm.em.getKnex().client as { pool?: TarnPool }).pool;
      if (!pool) return;
      this.set({ state: 'used' }, pool.numUsed());
      this.set({ state: 'idle' }, pool.numFree());
      this.set({ state: 'waiting' }, pool.numPendingAcquires());
      this.set({ state: 'max' }, pool.max);
    },
  });
}
