import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FeedPage, LiveFeedHub, type LiveStream } from './live-feed';
import { SseWriter } from './sse';

interface Row {
  id: string;
  merchantId: string;
}

/** An in-memory feed with the two reads of the hub, counted; `gate` holds a read until released. */
class Feed {
  rows: Row[] = [];
  allReads = 0;
  merchantReads = 0;
  gate?: Promise<void>;
  append(merchantId: string): Row {
    const row = { id: String(this.rows.length + 1), merchantId };
    this.rows.push(row);
    return row;
  }
  readAll = async (afterId: string | null, limit: number): Promise<FeedPage<Row>> => {
    this.allReads += 1;
    await this.gate;
    if (afterId === null) return { events: [], lastId: String(this.rows.length) };
    const events = this.rows.filter((r) => BigInt(r.id) > BigInt(afterId)).slice(0, limit);
    return { events, lastId: events.length > 0 ? events[events.length - 1].id : afterId };
  };
  read = async (merchantId: string, afterId: string, limit: number): Promise<Row[]> => {
    this.merchantReads += 1;
    const snapshot = this.rows.filter((r) => r.merchantId === merchantId && BigInt(r.id) > BigInt(afterId)).slice(0, limit);
    await this.gate;
    return snapshot;
  };
}

function stream(merchantId: string, lastId = 0n, accepts: (r: Row) => boolean = () => true) {
  const got: string[] = [];
  const s: LiveStream<Row> & { got: string[]; deliveries: number } = {
    merchantId,
    lastId,
    got,
    deliveries: 0,
    accepts,
    deliver: (events) => {
      s.deliveries += 1;
      got.push(...events.map((e) => e.id));
    },
    keepAlive: () => undefined,
    end: () => undefined,
  };
  return s;
}

const settle = () => new Promise((r) => setTimeout(r, 5));
const log = { warn: () => undefined };

describe('LiveFeedHub', () => {
  it('reads the whole feed once per wake-up, however many merchants and streams; each stream gets its rows once', async () => {
    const feed = new Feed();
    const hub = new LiveFeedHub<Row>({ readAll: feed.readAll, read: feed.read, pollMs: 60_000, keepAliveMs: 60_000, log });
    const streams = Array.from({ length: 100 }, (_, m) => Array.from({ length: 10 }, () => stream(`m${m}`))).flat();
    for (const s of streams) hub.add(s);
    await settle();
    expect(hub.streamCount).toBe(1000);
    const readsBefore = feed.allReads;
    for (let m = 0; m < 100; m += 10) feed.append(`m${m}`);
    hub.wake('m0');
    await settle();
    expect(feed.allReads - readsBefore).toBe(1);
    for (const s of streams)
      expect(s.got).toEqual(Number(s.merchantId.slice(1)) % 10 === 0 ? [String(Number(s.merchantId.slice(1)) / 10 + 1)] : []);
    hub.close();
  });

  it('coalesces wake-ups: any number during a read cost one more read', async () => {
    const feed = new Feed();
    const hub = new LiveFeedHub<Row>({ readAll: feed.readAll, read: feed.read, pollMs: 60_000, keepAliveMs: 60_000, log });
    const s = stream('m');
    hub.add(s);
    await settle();
    const before = feed.allReads;
    let release!: () => void;
    feed.gate = new Promise((r) => (release = r));
    feed.append('m');
    for (let i = 0; i < 50; i++) hub.wake('m');
    feed.append('m');
    for (let i = 0; i < 50; i++) hub.wake('m');
    release();
    feed.gate = undefined;
    await settle();
    expect(feed.allReads - before).toBe(2);
    expect(s.got).toEqual(['1', '2']);
    expect(s.deliveries).toBe(1);
    hub.close();
  });

  it('a stream that joins behind the cursor catches up without losing or repeating a row while the hub reads on', async () => {
    const feed = new Feed();
    const hub = new LiveFeedHub<Row>({ readAll: feed.readAll, read: feed.read, pollMs: 60_000, keepAliveMs: 60_000, log });
    const early = stream('m');
    hub.add(early);
    await settle();
    feed.append('m'); // 1
    feed.append('x'); // 2
    hub.wake();
    await settle();
    // A stream resuming after 0 joins while rows keep coming and the hub keeps reading.
    let release!: () => void;
    feed.gate = new Promise((r) => (release = r));
    const late = stream('m', 0n, (r) => r.id !== '4');
    hub.add(late); // its catch-up read is held at the gate with rows [1]
    feed.append('m'); // 3: after the catch-up's snapshot
    hub.wake(); // a global read, held at the gate too
    feed.append('m'); // 4: not accepted by `late`
    release();
    feed.gate = undefined;
    await settle();
    feed.append('m'); // 5
    hub.wake();
    await settle();
    expect(late.got).toEqual(['1', '3', '5']);
    expect(early.got).toEqual(['1', '3', '4', '5']);
    hub.close();
  });

  it('stops reading when nobody listens, and starts again from the head', async () => {
    const feed = new Feed();
    const hub = new LiveFeedHub<Row>({ readAll: feed.readAll, read: feed.read, pollMs: 60_000, keepAliveMs: 60_000, log });
    const s = stream('m');
    hub.add(s);
    await settle();
    hub.remove(s);
    const before = feed.allReads;
    hub.wake();
    await settle();
    expect(feed.allReads).toBe(before);
    hub.close();
  });

  it('closing (the process drains) ends every stream with the reconnect hint, on the wire as `retry:` before the end', async () => {
    const feed = new Feed();
    const hub = new LiveFeedHub<Row>({ readAll: feed.readAll, read: feed.read, pollMs: 60_000, keepAliveMs: 60_000, log });
    const server = http.createServer((_req, res) => {
      const sse = new SseWriter(res);
      const s = stream('m');
      hub.add({ ...s, end: (retryMs) => sse.end(retryMs) });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const body = new Promise<string>((resolve, reject) => {
        http
          .get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      while (hub.streamCount === 0) await settle();
      hub.close(1000);
      // The stream's opening hint, then the drain's: the client reconnects after 1 s (to another copy), and the stream ends.
      expect(await body).toBe('retry: 3000\n\nretry: 1000\n\n');
    } finally {
      server.close();
    }
  });
});
