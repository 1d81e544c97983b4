/**
 * Fan-out of a durable feed to the open live streams of one process (docs/decisions/0202-live-payment-events.md).
 *
 * ONE read per wake-up for every stream of every merchant: the hub keeps one cursor over the whole feed (ids are
 * handed out in commit order, so "rows after my cursor" never skips one) and reads every merchant's rows after it;
 * each row goes to the streams of its merchant that are behind it and accept it. Wake-ups coalesce: a signal during
 * a read runs one more read after it, however many signals came. The periodic tick is one read too, whatever the
 * number of merchants. Nothing is lost when a signal is: the next wake-up reads from the same cursor.
 *
 * A new stream starts at its own last id, usually behind the hub's cursor: before it joins, it catches up with
 * reads of its merchant's rows after its last id, repeated until no global read advanced the cursor meanwhile; it
 * then joins synchronously, so every row up to the cursor came from its own reads and every later one comes from the
 * hub's (a row seen by both is sent once: streams skip ids at or below their last id).
 */
/**
 * The PostgreSQL channel a feed append NOTIFYs (a trigger on the feed table, delivered at commit): the wake-up of
 * the REST processes that run the subgraphs themselves.
 */
export const PAYMENT_FEED_PG_CHANNEL = 'qris_payment_feed';

export interface FeedEvent {
  /** Decimal id, increasing in commit order. */
  id: string;
  merchantId: string;
}

export interface LiveStream<E extends FeedEvent> {
  readonly merchantId: string;
  /** The last event id this stream was sent (or had no business with); advanced by the hub. */
  lastId: bigint;
  accepts(event: E): boolean;
  /** The events of one read this stream accepts, in id order (written at once: one socket write per read). */
  deliver(events: E[]): void;
  keepAlive(): void;
  /** Ends the stream (hub closing), telling the client to reconnect after `retryMs` (to another copy). */
  end(retryMs?: number): void;
}

export interface FeedPage<E extends FeedEvent> {
  events: E[];
  /** The last id read, or the head when read with afterId null. */
  lastId: string;
}

export interface LiveFeedOptions<E extends FeedEvent> {
  /** Every merchant's events after `afterId` in id order, at most `limit`; afterId null: none, lastId = the head. */
  readAll: (afterId: string | null, limit: number) => Promise<FeedPage<E>>;
  /** One merchant's events after `afterId`, in id order, at most `limit` (a new stream's catch-up). */
  read: (merchantId: string, afterId: string, limit: number) => Promise<E[]>;
  pollMs: number;
  keepAliveMs: number;
  pageSize?: number;
  log: { warn(obj: object, msg: string): void };
}

export class LiveFeedHub<E extends FeedEvent> {
  /** The joined streams, by merchant. */
  private readonly merchants = new Map<string, Set<LiveStream<E>>>();
  private readonly joining = new Set<LiveStream<E>>();
  /** The last id every joined stream has been handed; undefined until the first read (then the head). */
  private cursor?: bigint;
  private running?: Promise<void>;
  private again = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly pageSize: number;
  private closed = false;
  /** Reads of the whole feed so far (tests and metrics). */
  reads = 0;

  constructor(private readonly options: LiveFeedOptions<E>) {
    this.pageSize = options.pageSize ?? 500;
  }

  start(): void {
    this.timers.push(setInterval(() => this.wake(), this.options.pollMs).unref());
    this.timers.push(
      setInterval(() => {
        for (const streams of this.merchants.values()) for (const stream of streams) stream.keepAlive();
        for (const stream of this.joining) stream.keepAlive();
      }, this.options.keepAliveMs).unref(),
    );
  }

  get streamCount(): number {
    let n = this.joining.size;
    for (const streams of this.merchants.values()) n += streams.size;
    return n;
  }

  /** Registers a stream: it catches up from its last id, then joins the hub's reads. */
  add(stream: LiveStream<E>): void {
    if (this.closed) return;
    this.joining.add(stream);
    void this.join(stream);
  }

  remove(stream: LiveStream<E>): void {
    this.joining.delete(stream);
    const streams = this.merchants.get(stream.merchantId);
    if (streams?.delete(stream) && streams.size === 0) this.merchants.delete(stream.merchantId);
    // Nobody listens: the next stream starts from the head again instead of paging through what nobody heard.
    if (this.streamCount === 0 && !this.running) this.cursor = undefined;
  }

  /** New rows may exist (of `_merchantId`, or of anyone: one read of the whole feed covers every merchant). */
  wake(_merchantId?: string): void {
    if (this.closed || this.streamCount === 0) return;
    this.again = true;
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  wakeAll(): void {
    this.wake();
  }

  /** Stops the hub and ends every stream, with `retryMs` as their reconnect hint (the process is stopping). */
  close(retryMs?: number): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const streams of this.merchants.values()) for (const stream of streams) stream.end(retryMs);
    for (const stream of this.joining) stream.end(retryMs);
    this.merchants.clear();
    this.joining.clear();
  }

  /** Reads the whole feed after the cursor until a read finds nothing newer and no wake-up came meanwhile. */
  private async drain(): Promise<void> {
    try {
      while (this.again && !this.closed && this.streamCount > 0) {
        this.again = false;
        const page = await this.options.readAll(this.cursor === undefined ? null : this.cursor.toString(), this.pageSize);
        this.reads += 1;
        if (this.cursor !== undefined) this.dispatch(page.events);
        this.cursor = BigInt(page.lastId);
        if (page.events.length >= this.pageSize) this.again = true;
      }
    } catch (error) {
      // The next wake-up or tick reads from the same cursor.
      this.options.log.warn({ err: error }, 'live feed: read failed');
    }
  }

  /** Hands each event to its merchant's joined streams that are behind it and accept it; one delivery per stream. */
  private dispatch(events: readonly E[]): void {
    const batches = new Map<LiveStream<E>, E[]>();
    for (const event of events) {
      const streams = this.merchants.get(event.merchantId);
      if (!streams) continue;
      const id = BigInt(event.id); // once per event, not per stream
      for (const stream of streams) {
        if (stream.lastId >= id) continue;
        stream.lastId = id;
        if (!stream.accepts(event)) continue;
        const batch = batches.get(stream);
        if (batch) batch.push(event);
        else batches.set(stream, [event]);
      }
    }
    for (const [stream, batch] of batches) stream.deliver(batch);
  }

  /** A new stream's catch-up (class comment), then it joins. */
  private async join(stream: LiveStream<E>): Promise<void> {
    try {
      for (;;) {
        if (this.cursor === undefined) {
          // The hub has no cursor yet: its first read sets it to the head.
          this.wake();
          await this.running;
          if (this.cursor === undefined) throw new Error('the feed could not be read');
        }
        const target = this.cursor;
        const events = await this.options.read(stream.merchantId, stream.lastId.toString(), this.pageSize);
        if (!this.joining.has(stream)) return; // removed meanwhile
        const fresh = events.filter((e) => BigInt(e.id) > stream.lastId);
        if (fresh.length > 0) {
          stream.lastId = BigInt(fresh[fresh.length - 1].id);
          const accepted = fresh.filter((e) => stream.accepts(e));
          if (accepted.length > 0) stream.deliver(accepted);
        }
        if (events.length >= this.pageSize || this.cursor !== target) continue;
        // Every row of the merchant up to the cursor has been read; later ones come with the hub's reads.
        if (stream.lastId < target) stream.lastId = target;
        this.joining.delete(stream);
        let streams = this.merchants.get(stream.merchantId);
        if (!streams) this.merchants.set(stream.merchantId, (streams = new Set()));
        streams.add(stream);
        return;
      }
    } catch (error) {
      // The client reconnects (with Last-Event-ID) and catches up then.
      this.options.log.warn({ err: error, merchant_id: stream.merchantId }, 'live feed: catch-up failed; ending the stream');
      this.joining.delete(stream);
      stream.end();
    }
  }
}
