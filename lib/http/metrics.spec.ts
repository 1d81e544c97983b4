import { Gauge, Registry } from 'prom-client';
import { includeThreadMetrics, mergedMetrics } from './metrics';

describe('metrics of two threads in one scrape', () => {
  const registryOf = (labels: Record<string, string>, value: number) => {
    const registry = new Registry();
    registry.setDefaultLabels(labels);
    new Gauge({ name: 'db_pool_connections', help: 'pool', labelNames: ['state'], registers: [registry] }).set({ state: 'max' }, value);
    return registry;
  };

  it('merges both threads’ series under one metric, told apart by their labels', async () => {
    const main = registryOf({ service: 'rest' }, 5);
    const thread = registryOf({ service: 'rest', thread: 'app' }, 3);
    includeThreadMetrics(main, async (own) => mergedMetrics([own, await thread.getMetricsAsJSON()]));
    const text = await main.metrics();
    expect(text.match(/^# TYPE db_pool_connections gauge$/gm)).toHaveLength(1);
    expect(text).toContain('db_pool_connections{state="max",service="rest"} 5');
    expect(text).toContain('db_pool_connections{state="max",service="rest",thread="app"} 3');
  });

  it('answers its own series when the other thread does not answer', async () => {
    const main = registryOf({ service: 'rest' }, 5);
    includeThreadMetrics(main, () => Promise.reject(new Error('gone')));
    expect(await main.metrics()).toContain('db_pool_connections{state="max",service="rest"} 5');
  });
});
