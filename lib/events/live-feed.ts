/**
 * Fan-out of a durable feed to the open live streams of one process (docs/decisions/0202-live-payment-events.md).
 * Streams register per merchant with the id of the last event they were sent. A wake-up for a merchant (a signal
 * from another process, or the periodic tick) reads that merchant's rows after the smallest last id of its streams
 * — ONE read however many streams it has — and hands each stream the rows after its own last id that it accepts.
 * A merchant's reads never overlap: a wake-up during a read runs one more read after it. Nothing is lost when a
 * signal is: the next tick reads from the same ids.
 */
export interface FeedEvent {
  /** Decimal id, increasing in commit order. */
  id: string;
}

export interface LiveStream<E extends FeedEvent> {
  readonly merchantId: string;
  /** The last event id this stream was sent (or had no business with); advanced by the hub. */
  lastId: bigint;
  accepts(event: E): boolean;
  /** The events of one read this stream accepts, in id order (written at once: one socket write per read). */
  deliver(events: E[]): void;
  keepAlive(): void;
  /** Ends the stream (hub closing). */
  end(): void;
}

export interface LiveFeedOptions<E extends FeedEvent> {
  /** The merchant's events after `afterId`, in id order, at most `limit`. */
  read: (merchantId: string, afterId: string, limit: number) => Promise<E[]>;
  pollMs: number;
  keepAliveMs: number;
  pageSize?: number;
  log: { warn(obj: object, msg: string): void };
}

interface MerchantState<E extends FeedEvent> {
  streams: Set<LiveStream<E>>;
  running: boolean;
  again: boolean;
}

export class LiveFeedHub<E extends FeedEvent> {
  private readonly merchants = new Map<string, MerchantState<E>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly pageSize: number;
  private closed = false;

  constructor(private readonly options: LiveFeedOptions<E>) {
    this.pageSize = options.pageSize ?? 200;
  }

  start(): void {
    this.timers.push(setInterval(() => this.wakeAll(), this.options.pollMs).unref());
    this.timers.push(
      setInterval(() => {
        for (const state of this.merchants.values()) for (const stream of state.streams) stream.keepAlive();
      }, this.options.keepAliveMs).unref(),
    );
  }

  get streamCount(): number {
    let n = 0;
    for (const state of this.merchants.values()) n += state.streams.size;
    return n;
  }

  /** Registers a stream and reads once for it (events committed since its last id, e.g. while it was connecting). */
  add(stream: LiveStream<E>): void {
    let state = this.merchants.get(stream.merchantId);
    if (!state) this.merchants.set(stream.merchantId, (state = { streams: new Set(), running: false, again: false }));
    state.streams.add(stream);
    this.wake(stream.merchantId);
  }

  remove(stream: LiveStream<E>): void {
    const state = this.merchants.get(stream.merchantId);
    if (!state) return;
    state.streams.delete(stream);
    if (state.streams.size === 0 && !state.running) this.merchants.delete(stream.merchantId);
  }

  /** New rows of the merchant may exist. */
  wake(merchantId: string): void {
    const state = this.merchants.get(merchantId);
    if (!state || this.closed) return;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    void this.drain(merchantId, state);
  }

  wakeAll(): void {
    for (const merchantId of this.merchants.keys()) this.wake(merchantId);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const state of this.merchants.values()) for (const stream of state.streams) stream.end();
    this.merchants.clear();
  }

  private async drain(merchantId: string, state: MerchantState<E>): Promise<void> {
    try {
      for (;;) {
        state.again = false;
        if (state.streams.size === 0 || this.closed) break;
        let after: bigint | undefined;
        for (const s of state.streams) if (after === undefined || s.lastId < after) after = s.lastId;
        const events = await this.options.read(merchantId, after!.toString(), this.pageSize);
        for (const stream of [...state.streams]) {
          const accepted: E[] = [];
          for (const event of events) {
            const id = BigInt(event.id);
            if (stream.lastId >= id) continue;
            stream.lastId = id;
            if (stream.accepts(event)) accepted.push(event);
          }
          if (accepted.length > 0) stream.deliver(accepted);
        }
        if (events.length < this.pageSize && !state.again) break;
      }
    } catch (error) {
      // The next wake-up or tick reads from the same ids.
      this.options.log.warn({ err: error, merchant_id: merchantId }, 'live feed: read failed');
    } finally {
      state.running = false;
      if (state.streams.size === 0) this.merchants.delete(merchantId);
    }
  }
}
