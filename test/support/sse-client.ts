/** One frame of a Server-Sent Events stream (docs/decisions/0202-live-payment-events.md). */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: any;
  comment?: string;
  /** A `retry:` hint: reconnect after this many milliseconds. */
  retry?: number;
}

/** The frames of a stream's body as they arrive (each ends with a blank line). */
async function* framesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      yield parseFrame(block);
    }
  }
}

/** One frame's lines (without the blank line that ends it). */
function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    else if (line.startsWith('retry: ')) frame.retry = Number(line.slice(7));
    else if (line.startsWith('id: ')) frame.id = line.slice(4);
    else if (line.startsWith('event: ')) frame.event = line.slice(7);
    else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
  }
  return frame;
}

/** An open Server-Sent Events stream read with fetch: its frames as they arrive. */
export class SseClient {
  readonly frames: SseFrame[] = [];
  status = 0;
  headers?: Headers;
  ended = false;
  private readonly abort = new AbortController();
  private waiters: (() => void)[] = [];

  static async open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const client = new SseClient();
    const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: client.abort.signal });
    client.status = res.status;
    client.headers = res.headers;
    if (res.status !== 200) {
      client.frames.push({ data: await res.json() });
      client.ended = true;
      return client;
    }
    void client.read(res.body!);
    return client;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const frame of framesOf(body)) {
        this.frames.push(frame);
        this.notify();
      }
    } catch {
      // aborted
    }
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  events(): SseFrame[] {
    return this.frames.filter((f) => f.event);
  }

  /** Waits until `predicate` holds over the frames (or fails after `ms`). */
  async until(predicate: (c: SseClient) => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate(this)) {
      if (Date.now() > deadline) throw new Error(`timed out; frames: ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close(): void {
    this.abort.abort();
  }
}

/**
 * A Server-Sent Events client as a browser's EventSource behaves: when the stream ends it reconnects after the
 * server's last `retry:` hint, sending `Last-Event-ID` (the id of the last event it saw), so the server replays what
 * it missed (docs/decisions/0202-live-payment-events.md, 0203-compose-and-image-proof.md). It keeps every event, every
 * connection's answer and how each stream ended.
 */
export class ReconnectingSseClient {
  readonly events: SseFrame[] = [];
  /** Streams opened with 200. */
  connections = 0;
  /** Opens answered otherwise (status 0: the connection failed), with their body. */
  readonly refused: { status: number; body: string; at: number }[] = [];
  /** Streams that ended with a `retry:` hint as their last frame (a draining server's goodbye). */
  endedWithHint = 0;
  /** Streams that ended otherwise: without the hint, or cut (an error while reading). */
  readonly abrupt: { reason: string; at: number }[] = [];
  retryMs = 3000;
  lastEventId?: string;
  private stopped = false;
  private readonly abort = new AbortController();
  private running?: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {}

  start(): void {
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const headers: Record<string, string> = { accept: 'text/event-stream', ...this.headers };
      if (this.lastEventId !== undefined) headers['last-event-id'] = this.lastEventId;
      try {
        const res = await fetch(this.url, { headers, signal: this.abort.signal });
        if (res.status !== 200) this.refused.push({ status: res.status, body: await res.text(), at: Date.now() });
        else {
          this.connections += 1;
          await this.read(res.body!);
        }
      } catch (error) {
        if (this.stopped) return;
        this.refused.push({ status: 0, body: (error as Error).message, at: Date.now() });
      }
      if (this.stopped) return;
      await new Promise((resolve) => setTimeout(resolve, this.retryMs));
    }
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    let lastWasHint = false;
    try {
      for await (const frame of framesOf(body)) {
        if (frame.retry !== undefined) this.retryMs = frame.retry;
        lastWasHint = frame.retry !== undefined && !frame.event;
        if (frame.id !== undefined) this.lastEventId = frame.id;
        if (frame.event) this.events.push(frame);
      }
    } catch (error) {
      if (!this.stopped) this.abrupt.push({ reason: (error as Error).message, at: Date.now() });
      return;
    }
    if (lastWasHint) this.endedWithHint += 1;
    else this.abrupt.push({ reason: 'ended without a retry hint', at: Date.now() });
  }
}
