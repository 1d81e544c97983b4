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
 * `db_pool_connections{subgraph, state}` of each subgraph connection pool this process holds (its own, or with
 * REST_SUBGRAPHS=in-process the REST process's four), read at each scrape: `used`, `idle`, `waiting` (callers queued
 * for a connection: the first sign the pool, not PostgreSQL, is the wall) and `max`.
 */
export function registerPoolMetrics(registry: Registry, pools: Record<string, MikroORM>): void {
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of each subgraph pool of this process to PostgreSQL by state (used, idle, waiting callers, max)',
    labelNames: ['subgraph', 'state'],
    registers: [registry],
    collect() {
      for (const [subgraph, orm] of Object.entries(pools)) {
        const pool = (orm.em.getKnex().client as { pool?: TarnPool }).pool;
        if (!pool) continue;
        this.set({ subgraph, state: 'used' }, pool.numUsed());
        this.set({ subgraph, state: 'idle' }, pool.numFree());
        this.set({ subgraph, state: 'waiting' }, pool.numPendingAcquires());
        this.set({ subgraph, state: 'max' }, pool.max);
      }
    },
  });
}
