import path from 'node:path';
import Fastify from 'fastify';
import type { HttpError } from '@lib/rest/error-body';
import { LeastBusy, OPERATIONS_IN_FLIGHT, OperationsThread } from './operations-thread';

const ECHO = path.join(__dirname, '..', 'test', 'support', 'echo-operations-thread.js');
const caller = (requestId: string) => ({ principal: { kind: 'service' as const, service: 'test' }, requestId });
const run = (thread: OperationsThread | LeastBusy, requestId: string, variables: Record<string, unknown> = {}) =>
  thread.execute<{ requestId: string; thread: string }>({ query: '{ x }', variables }, caller(requestId));

describe('an operations thread (a real worker thread speaking its messages)', () => {
  let thread: OperationsThread;
  beforeAll(async () => {
    thread = await OperationsThread.start(Fastify({ logger: false }).log, 'app', ECHO);
  });
  afterAll(() => thread.close());

  it('answers each call with its own answer, many at once', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => run(thread, `r-${i}`, { delayMs: 20 - i })));
    expect(answers.map((a) => a.result.data?.requestId)).toEqual(Array.from({ length: 20 }, (_, i) => `r-${i}`));
  });

  it(`sheds a call beyond ${OPERATIONS_IN_FLIGHT} in flight with 503 and Retry-After, at once, and takes calls again after`, async () => {
    const held = Array.from({ length: OPERATIONS_IN_FLIGHT }, (_, i) => run(thread, `held-${i}`, { delayMs: 300 }));
    const started = Date.now();
    const shed = (await run(thread, 'one-too-many').catch((e: unknown) => e)) as HttpError;
    expect([shed.status, shed.code, shed.retryAfterSecs]).toEqual([503, 'service_unavailable', expect.any(Number)]);
    expect(Date.now() - started).toBeLessThan(250); // before any held call ends (300 ms)
    expect((await Promise.all(held)).length).toBe(OPERATIONS_IN_FLIGHT);
    expect((await run(thread, 'after')).result.data?.requestId).toBe('after');
  });

  it('answers 503 for the calls a dying thread held, and starts it again', async () => {
    const slow = run(thread, 'slow', { delayMs: 500 });
    const crash = run(thread, 'crash', { crash: true });
    for (const outcome of await Promise.allSettled([slow, crash])) {
      expect(outcome.status).toBe('rejected');
      expect(((outcome as PromiseRejectedResult).reason as HttpError).status).toBe(503);
    }
    let answered: string | undefined;
    for (let i = 0; i < 50 && !answered; i += 1) {
      answered = await run(thread, 'again').then(
        (a) => a.result.data?.requestId,
        () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50)),
      );
    }
    expect(answered).toBe('again');
  });

  it('adds its series to the scrape, or merges the scrape on the thread', async () => {
    expect(await thread.metricsParts([[]])).toEqual([[], [{ thread: 'app' }]]);
    expect(await thread.metrics([[], []])).toBe('# 3 parts merged by the app thread\n');
  });
});

describe('threads of one role (LeastBusy)', () => {
  let threads: OperationsThread[];
  let pool: LeastBusy;
  beforeAll(async () => {
    const log = Fastify({ logger: false }).log;
    threads = await Promise.all(['app-1', 'app-2'].map((name) => OperationsThread.start(log, name, ECHO)));
    pool = new LeastBusy(threads);
  });
  afterAll(() => pool.close());

  it('sends a call to the thread holding fewer, so a short call does not wait behind a long one', async () => {
    const answered: string[] = [];
    const long = run(pool, 'long', { delayMs: 1000 }).finally(() => answered.push('long'));
    const short = await run(pool, 'short');
    expect(short.result.data).toEqual({ requestId: 'short', thread: 'app-2' });
    expect(answered).toEqual([]); // the long call is still on the other thread
    expect((await long).result.data).toEqual({ requestId: 'long', thread: 'app-1' });
    // Both idle again: the first takes the next call.
    expect((await run(pool, 'next')).result.data?.thread).toBe('app-1');
  });
});
