/**
 * Polls `probe` every 50 ms until it answers something other than `undefined`, and returns that; fails after
 * `timeoutMs` with `what` (a function: read when it fails, e.g. to name what the last probe saw). For state that
 * follows by a job's latency (copies, queues): milliseconds, not a sleep.
 */
export async function eventually<T>(what: string | (() => string), probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(typeof what === 'string' ? what : what());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
