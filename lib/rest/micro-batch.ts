/**
 * Group commit for concurrent requests. Items submitted while `maxInFlight` batches are running wait, and
 * leave together as the next batch (at most `maxBatch` items) once one of them finishes. Under no load an item
 * leaves alone at the end of the current event-loop turn, so it waits for nothing; under load the batches
 * grow by themselves and the fixed cost of a call (hops, parsing, a commit) is shared by everyone in it.
 *
 * `run` answers one result per item, in order: an Error in a slot fails that item only; a rejected `run`
 * fails every item of the batch.
 */
export class MicroBatcher<I, O> {
  private readonly queue: { item: I; resolve: (result: O) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<(O | Error)[]>,
    private readonly options: { maxBatch: number; maxInFlight: number },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    // setImmediate runs after the I/O callbacks of this turn: requests that arrived together leave together.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      this.run(batch.map((entry) => entry.item))
        .then(
          (results) => {
            batch.forEach((entry, i) => {
              const result = results[i];
              if (result instanceof Error) entry.reject(result);
              else if (result === undefined) entry.reject(new Error('the batch answered fewer results than items'));
              else entry.resolve(result);
            });
          },
          (error: unknown) => {
            for (const entry of batch) entry.reject(error);
          },
        )
        .finally(() => {
          this.inFlight -= 1;
          this.schedule();
        });
    }
  }
}
