/** One frame of a Server-Sent Events stream (docs/decisions/0202-live-payment-events.md). */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: any;
  comment?: string;
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
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: SseFrame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comment = line.slice(1).trim();
            else if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
          }
          this.frames.push(frame);
          this.notify();
        }
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
