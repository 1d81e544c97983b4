import net from 'node:net';
import { request } from 'undici';
import { signPrincipal, PRINCIPAL_HEADER } from '@lib/auth/principal';
import { DEV_SECRETS } from '@lib/config/config';
import { adminQuery } from '../support/test-database';
import { ProcessTestDatabase, StackProcess, freePorts, sleep } from './processes';

/**
 * Probes and the graceful drain of a built process (docs/decisions/0203-compose-and-image-proof.md), on the merchant
 * subgraph (its job worker included): /livez checks nothing, /readyz fails until the database holds this build's
 * migrations; on SIGTERM /readyz answers 503 at once while the process goes on serving for DRAIN_DELAY_MS, then it
 * stops accepting, answers the request still in flight, and exits 0.
 */
const DRAIN_DELAY_MS = 1500;

const get = async (origin: string, path: string) => {
  const res = await request(`${origin}${path}`, { headersTimeout: 2000, bodyTimeout: 2000 });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown>, connection: res.headers.connection };
};

/** A request sent up to its last byte: held in flight until `finish` sends it, then answered. */
function heldRequest(port: number, path: string, headers: Record<string, string>, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = [`POST ${path} HTTP/1.1`, 'host: 127.0.0.1', 'content-type: application/json', `content-length: ${Buffer.byteLength(body)}`]
    .concat(Object.entries(headers).map(([k, v]) => `${k}: ${v}`))
    .join('\r\n');
  socket.write(`${head}\r\n\r\n${body.slice(0, -1)}`);
  return {
    finish: async () => {
      socket.write(body.slice(-1));
      await closed;
      return received;
    },
  };
}

describe('probes and the graceful drain of a process', () => {
  let db: ProcessTestDatabase;

  beforeAll(async () => {
    db = await ProcessTestDatabase.create('k8s_drain');
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** The built merchant subgraph process on the test database and ports of its own, not started yet. */
  const merchantProcess = async (env: Record<string, string>) => {
    const [port, metrics] = await freePorts(2);
    const merchant = new StackProcess(
      'merchant',
      'subgraphs/merchant/src/main.js',
      {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: db.adminUrl,
        MERCHANT_PORT: String(port),
        METRICS_PORT: String(metrics),
        ...env,
      },
      port,
    );
    return { merchant, port, origin: `http://127.0.0.1:${port}` };
  };

  it('is live but not ready until its migrations are applied', async () => {
    const last = await adminQuery<{ name: string }>(db.adminUrl, 'select name from merchant.mikro_orm_migrations order by id desc limit 1');
    const name = last[0].name;
    await adminQuery(db.adminUrl, `delete from merchant.mikro_orm_migrations where name = '${name}'`);
    const { merchant, origin } = await merchantProcess({ JOBS_CONCURRENCY: '0' });
    try {
      await merchant.start();
      expect(await get(origin, '/livez')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await get(origin, '/readyz')).toMatchObject({ status: 503, body: { status: 'unavailable', checks: { database: 'failing' } } });
      // /health as core-api.md documents it: the database answers.
      expect(await get(origin, '/health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
      await adminQuery(db.adminUrl, `insert into merchant.mikro_orm_migrations (name, executed_at) values ('${name}', now())`);
      expect(await get(origin, '/readyz')).toMatchObject({ status: 200, body: { status: 'ok', checks: { database: 'ok' } } });
    } finally {
      await merchant.stop();
    }
  });

  it('on SIGTERM: not ready at once, serves through the drain delay, answers the request in flight, exits 0', async () => {
    const { merchant, origin, port } = await merchantProcess({ DRAIN_DELAY_MS: String(DRAIN_DELAY_MS), JOBS_CONCURRENCY: '2' });
    await merchant.start();
    try {
      expect(await get(origin, '/readyz')).toMatchObject({ status: 200, body: { status: 'ok' } });
      const principal = await signPrincipal({ kind: 'internal', service: 'drain-test' }, DEV_SECRETS.PRINCIPAL_SECRET);
      const held = heldRequest(port, '/graphql', { [PRINCIPAL_HEADER]: principal }, JSON.stringify({ query: '{ __typename }' }));
      await sleep(100);

      const exited = merchant.exitCode();
      const signalled = Date.now();
      merchant.send('SIGTERM');
      await sleep(100);
      const draining = await get(origin, '/readyz');
      const notReadyAfterMs = Date.now() - signalled;
      expect(draining).toMatchObject({ status: 503, body: { status: 'draining' }, connection: 'close' });
      expect(notReadyAfterMs).toBeLessThan(DRAIN_DELAY_MS / 2);
      // Still serving during the delay (a load balancer may send until it has seen the 503), and still live.
      expect(await get(origin, '/livez')).toMatchObject({ status: 200 });
      expect(await get(origin, '/health')).toMatchObject({ status: 200 });

      // After the delay: no new connection is accepted; the request in flight is answered, then the process exits 0.
      await sleep(DRAIN_DELAY_MS + 300);
      await expect(request(`${origin}/livez`, { headersTimeout: 1000 })).rejects.toThrow();
      const answer = await held.finish();
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toContain('"__typename":"Query"');
      expect(await exited).toBe(0);
      expect(merchant.output.join('\n')).not.toMatch(/"level":(50|60)/);
    } finally {
      await merchant.stop();
    }
  });
});
