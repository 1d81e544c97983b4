/**
 * Polls `probe` every 50 ms until it answers something other than `undefined`, and returns that; fails after
 * `timeoutMs` with `what`. For state that follows by a job's latency (copies, queues): milliseconds, not a sleep.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
