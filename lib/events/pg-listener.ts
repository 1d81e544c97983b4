import { Client } from 'pg';
import type { SignalLog } from './redis-signal';

export interface PgListenerOptions {
  /** A direct server connection (never a pooler in transaction mode, which does not keep a LISTEN session). */
  databaseUrl: string;
  channel: string;
  /** What listens, for the log lines. */
  what: string;
  log: SignalLog;
  onNotify: (payload: string) => void;
  /** After every LISTEN that took (the first and each after a reconnection: notifications sent meanwhile are lost). */
  onListening?: () => void;
}

/**
 * One PostgreSQL session LISTENing on a channel for the life of its owner. It reconnects a second after a loss (a
 * restart of PostgreSQL, a failover); what was sent while it was away is lost, which `onListening` lets the owner
 * make up for (re-read, drop caches). Used by the cache-invalidation relay and the live feed's wake-up.
 */
export class PgListener {
  private client?: Client;
  private closed = false;
  private retry?: NodeJS.Timeout;

  constructor(private readonly options: PgListenerOptions) {}

  async start(): Promise<void> {
    if (this.closed) return;
    const { channel, onNotify } = this.options;
    const client = new Client({ connectionString: this.options.databaseUrl });
    client.on('notification', (n) => {
      if (n.channel === channel) onNotify(n.payload ?? '');
    });
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      if (this.closed) return void (await client.end().catch(() => undefined));
      this.client = client;
      this.options.onListening?.();
    } catch (error) {
      this.options.log.warn({ err: error }, `${this.options.what}: cannot LISTEN on PostgreSQL; retrying`);
      this.reconnect(client);
    }
  }

  private reconnect(client: Client): void {
    if (this.closed || this.retry || (this.client && this.client !== client)) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.start();
    }, 1000);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }
}
