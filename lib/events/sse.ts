import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * One Server-Sent Events response (text/event-stream) written on a raw Node response the route took over:
 * `event:` / `id:` / `data:` frames, comment lines as keep-alives, the end of the stream when the client goes.
 */
export class SseWriter {
  private ended = false;
  private readonly onEnd: (() => void)[] = [];

  constructor(
    private readonly raw: ServerResponse,
    headers: Record<string, string> = {},
    retryMs = 3000,
  ) {
    const socket = raw.socket as Partial<Socket> | null;
    // An open stream is not idle: no server idle timeout, no Nagle delay on small frames (a real socket only: an
    // injected request has a stand-in).
    if (typeof socket?.setTimeout === 'function') socket.setTimeout(0);
    if (typeof socket?.setNoDelay === 'function') socket.setNoDelay(true);
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...headers,
    });
    raw.write(`retry: ${retryMs}\n\n`);
    raw.on('close', () => this.finish());
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  /** Called once when the stream ends, whoever ends it. */
  whenEnded(listener: () => void): void {
    if (this.ended) listener();
    else this.onEnd.push(listener);
  }

  event(name: string, data: unknown, id?: string): void {
    this.frame(frameOf(name, data, id));
  }

  /** A frame already serialised (`frameOf`): one event sent to many streams is serialised once. */
  frame(text: string): void {
    if (!this.ended) this.raw.write(text);
  }

  comment(text: string): void {
    if (!this.ended) this.raw.write(`: ${text}\n\n`);
  }

  /** Ends the stream; `retryMs`: first tells the client to reconnect after that long (a draining process, decision 0203). */
  end(retryMs?: number): void {
    if (this.ended) return;
    this.raw.end(retryMs === undefined ? undefined : `retry: ${retryMs}\n\n`);
    this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const listener of this.onEnd.splice(0)) listener();
  }
}

/** One SSE frame: optional `id:`, `event:`, and the JSON data on one `data:` line. */
export function frameOf(name: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
