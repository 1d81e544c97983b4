import { randomUUID } from 'node:crypto';
import { postDemoBankEvent } from '../support/bank-events';
import { type TestStack, startTestStack } from '../support/test-stack';

describe('repro', () => {
  let stack: TestStack;
  beforeAll(async () => { stack = await startTestStack({ LOG_LEVEL: 'warn' }); });
  afterAll(() => stack?.close());
  const deep = (n: number) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`);
  it.each([
    ['surrogate', { payer_name_masked: 'A\ud800B' }],
    ['year0', { transaction_at: '0000-01-01T00:00:00Z' }],
    ['year10000', { transaction_at: '10000-01-01T00:00:00Z' }],
    ['year9999', { transaction_at: '9999-12-31T23:59:59Z' }],
    ['deep1000', { extra: deep(1000) }],
    ['deep5000', { extra: deep(5000) }],
    ['deep20000', { extra: deep(20000) }],
    ['extra surrogate key', { ['k\ud800']: 1 }],
    ['extra nul', { extra: 'a\u0000' }],
  ])('%s', async (_n, ev) => {
    const res = await postDemoBankEvent(stack, { external_event_id: randomUUID(), transaction_code: randomUUID(), gross_amount: 1000, ...ev });
    console.log(_n, res.statusCode, res.body.slice(0, 200), stack.logs.filter(l => (l as any).level >= 50).slice(-1).map(l => JSON.stringify(l).slice(0, 600)));
  });
});
