import { Counter } from 'prom-client';

/**
 * `cache_lookups_total{cache, result}` of the per-process caches (credentials, sessions, memberships, responses):
 * hit ratio = hit / (hit + miss). One counter per process; metricsPlugin adds it to the app's registry.
 */
export const cacheLookups = new Counter({
  name: 'cache_lookups_total',
  help: 'Lookups in per-process caches by cache and result (hit or miss)',
  labelNames: ['cache', 'result'],
  registers: [],
});

export function countLookup(cache: string, hit: boolean): void {
  cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
}
