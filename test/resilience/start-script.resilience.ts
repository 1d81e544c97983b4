import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePorts, sleep } from './processes';

/** `npm start` built (dist/scripts/start.js), on its own embedded PostgreSQL and free ports. */
const START = path.resolve(__dirname, '../../dist/scripts/start.js');
const DATA_DIR = path.resolve(__dirname, '../../.data-local/start-script');

/**
 * The pids of a process's children, and each one's whole command line (from /proc: `ps` cuts it to the terminal's
 * width). A child that exits between the two reads (a short-lived helper process) is left out; no children (`ps`
 * exits 1) is an empty list.
 */
function childrenOf(pid: number): { pid: number; command: string }[] {
  const listed = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  if (listed.status !== 0 && listed.status !== 1) throw new Error(`ps failed: ${listed.stderr}`);
  const pids = listed.stdout.trim().split(/\s+/).filter(Boolean).map(Number);
  return pids.flatMap((child) => {
    try {
      return [{ pid: child, command: readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').join(' ') }];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * A child of `npm start` killed with SIGKILL: start stops every other child and its embedded PostgreSQL within a
 * few seconds and exits 1 (scripts/start.ts; README "Start and test"), instead of waiting for the dead child forever.
 */
describe('npm start when a child dies', () => {
  it('stops every child and the embedded PostgreSQL within 15 s and exits 1', async () => {
    // Ports chosen free now, as the other files' stacks choose theirs: fixed ones fell in the ephemeral range, where
    // a stack beside this file could take them. No /metrics ports (METRICS_PORT 0): they need a consecutive range.
    const [postgres, rest, gateway, merchant, outlet, transaction, catalog] = (await freePorts(7)).map(String);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR,
      EMBEDDED_PG_PORT: postgres,
      REST_PORT: rest,
      GATEWAY_PORT: gateway,
      MERCHANT_PORT: merchant,
      OUTLET_PORT: outlet,
      TRANSACTION_PORT: transaction,
      CATALOG_PORT: catalog,
      METRICS_PORT: '0',
    };
    delete env.DATABASE_URL;
    const start = spawn(process.execPath, [START], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    start.stdout.on('data', (data: Buffer) => (output += data.toString()));
    start.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
    try {
      const readyBy = Date.now() + 200_000;
      while (!output.includes('ready in') && Date.now() < readyBy && start.exitCode === null) await sleep(250);
      expect(output).toContain('ready in');

      // Every child is listed (read again for a moment if one is missing); the output says why when one is not.
      let children = childrenOf(start.pid!);
      const find = (part: string) => children.find((child) => child.command.includes(part));
      const listed = () => find('subgraphs/outlet/src/main.js') && find('postgres');
      for (let tries = 0; !listed() && start.exitCode === null && tries < 20; tries++) {
        await sleep(250);
        children = childrenOf(start.pid!);
      }
      const outletChild = find('subgraphs/outlet/src/main.js');
      const postgresChild = find('postgres');
      expect({ found: [outletChild, postgresChild].map(Boolean), exitCode: start.exitCode, children, output }).toEqual({
        found: [true, true],
        exitCode: null,
        children: expect.anything(),
        output: expect.anything(),
      });
      process.kill(outletChild!.pid, 'SIGKILL');

      const killedAt = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(() => resolve('still running'), 15_000)))]);
      clearTimeout(timer);
      expect([code, output]).toEqual([1, expect.stringContaining('outlet exited (SIGKILL); stopping everything')]);
      expect(Date.now() - killedAt).toBeLessThan(15_000);
      expect(children.filter((child) => alive(child.pid))).toEqual([]);
    } finally {
      if (start.exitCode === null && start.signalCode === null) start.kill('SIGINT');
      await exited;
    }
  }, 240_000);
});
