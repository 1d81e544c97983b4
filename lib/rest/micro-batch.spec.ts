import { MicroBatcher } from './micro-batch';

const tick = () => new Promise((r) => setImmediate(r));

/** A run whose batches the test finishes by hand, recording what each batch held. */
function manualRun() {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const run = (items: number[]) =>
    new Promise<(string | Error)[]>((resolve) => {
      batches.push(items);
      pending.push(() => resolve(items.map((n) => (n < 0 ? new Error(`bad ${n}`) : `ok ${n}`))));
    });
  const finishNext = async () => {
    pending.shift()!();
    await tick(); // the batch's callbacks run, and the batcher schedules the next batch
    await tick(); // which leaves
  };
  return { batches, run, finishNext };
}

describe('MicroBatcher', () => {
  it('sends a lone item at once, and what arrives while the batches run as the next batch', async () => {
    const { batches, run, finishNext } = manualRun();
    const batcher = new MicroBatcher(run, { maxBatch: 100, maxInFlight: 1 });
    const first = batcher.submit(1);
    await tick();
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4, 5].map((n) => batcher.submit(n));
    await tick();
    expect(batches).toEqual([[1]]); // waiting: one batch in flight
    await finishNext();
    expect(await first).toBe('ok 1');
    expect(batches).toEqual([[1], [2, 3, 4, 5]]);
    await finishNext();
    expect(await Promise.all(rest)).toEqual(['ok 2', 'ok 3', 'ok 4', 'ok 5']);
  });

  it('runs up to maxInFlight batches of at most maxBatch items', async () => {
    const { batches, run, finishNext } = manualRun();
    const batcher = new MicroBatcher(run, { maxBatch: 2, maxInFlight: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => batcher.submit(n));
    await tick();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await finishNext();
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    await finishNext();
    await finishNext();
    expect(await Promise.all(all)).toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5']);
  });

  it('fails only the item whose slot is an Error, and every item when the run fails', async () => {
    const { run, finishNext } = manualRun();
    const batcher = new MicroBatcher(run, { maxBatch: 10, maxInFlight: 1 });
    const answers = [7, -1, 8].map((n) => batcher.submit(n).catch((e: Error) => e.message));
    await tick();
    await finishNext();
    expect(await Promise.all(answers)).toEqual(['ok 7', 'bad -1', 'ok 8']);

    const failing = new MicroBatcher<number, string>(() => Promise.reject(new Error('down')), { maxBatch: 10, maxInFlight: 1 });
    const down = [1, 2].map((n) => failing.submit(n).catch((e: Error) => e.message));
    expect(await Promise.all(down)).toEqual(['down', 'down']);
    // The batcher keeps working after a failed batch.
    const after = new MicroBatcher<number, string>(async (items) => items.map(String), { maxBatch: 10, maxInFlight: 1 });
    expect(await after.submit(3)).toBe('3');
  });
});
