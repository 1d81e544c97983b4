import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import type { Client as PgClient } from 'pg';
import { STACK_ENTRIES } from './harness';

/**
 * CPU time per process of a benchmark run, from /proc/<pid>/stat (utime + stime, clock ticks): the stack's
 * processes by entry point, the floor server, the PostgreSQL backends of the database, the load generator.
 */

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function procStat(pid: number): { ppid: number; ticks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state ppid … utime (14th field overall) stime (15th).
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) };
  } catch {
    return null;
  }
}

/** The machine's CPU ticks from /proc/stat: all, and those idle (idle + iowait), summed over every core. */
function machineTicks(): { total: number; idle: number } {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const ticks = fields.slice(0, 8).map(Number); // user nice system idle iowait irq softirq steal
    return { total: ticks.reduce((a, b) => a + b, 0), idle: ticks[3] + ticks[4] };
  } catch {
    return { total: 0, idle: 0 };
  }
}

function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (procStat(Number(entry))?.ppid === parent) pids.push(Number(entry));
  }
  return pids;
}

export const CPU_LABELS = [
  'rest',
  'gateway',
  'merchant',
  'outlet',
  'transaction',
  'catalog',
  'floor',
  'pg:stack',
  'pg:floor',
  'lb',
  'loadgen',
] as const;
export type CpuLabel = (typeof CPU_LABELS)[number];

/** The processes whose CPU time is sampled: the stack's children by entry point, the floor, PostgreSQL backends. */
export class CpuSampler {
  private readonly node = new Map<number, CpuLabel>();

  constructor(
    stackPid: number,
    floorPid: number | undefined,
    private readonly pg: PgClient,
    /** Processes of the stack outside start.js's children: further copies (BENCH_COPIES) and their load balancer. */
    extraPids: number[] = [],
  ) {
    const entries = Object.entries(STACK_ENTRIES).map(([label, entry]) => [entry, label as CpuLabel] as const);
    for (const pid of [...childrenOf(stackPid), ...extraPids]) {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (cmdline.includes('nginx')) for (const lb of [pid, ...childrenOf(pid)]) this.node.set(lb, 'lb');
      const match = entries.find(([entry]) => cmdline.includes(entry));
      if (match) this.node.set(pid, match[1]);
    }
    const missing = entries.filter(([, label]) => ![...this.node.values()].includes(label)).map(([, label]) => label);
    if (missing.length > 0) throw new Error(`could not find the stack's ${missing.join(', ')} process among the children of ${stackPid}`);
    if (floorPid !== undefined) this.node.set(floorPid, 'floor');
  }

  /** Ticks per pid, labelled; PostgreSQL backends of this database (the floor's by its application_name). */
  async snapshot(): Promise<{
    at: Map<number, { label: CpuLabel; ticks: number }>;
    loadgenMicros: number;
    walBytes: bigint;
    machine: { total: number; idle: number };
  }> {
    const at = new Map<number, { label: CpuLabel; ticks: number }>();
    for (const [pid, label] of this.node) at.set(pid, { label, ticks: procStat(pid)?.ticks ?? 0 });
    const { rows } = await this.pg.query<{ pid: number; application_name: string }>(
      'select pid, application_name from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    for (const row of rows) {
      const stat = procStat(row.pid);
      if (stat) at.set(row.pid, { label: row.application_name === 'bench-floor' ? 'pg:floor' : 'pg:stack', ticks: stat.ticks });
    }
    // The server's WAL position (every database: read it around runs where only the stack writes).
    const { rows: wal } = await this.pg.query<{ bytes: string }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as bytes`);
    const usage = process.cpuUsage();
    return { at, loadgenMicros: usage.user + usage.system, walBytes: BigInt(wal[0].bytes.split('.')[0]), machine: machineTicks() };
  }

  /** CPU seconds per label between two snapshots (a backend that appeared in between counts from zero). */
  static delta(
    before: Awaited<ReturnType<CpuSampler['snapshot']>>,
    after: Awaited<ReturnType<CpuSampler['snapshot']>>,
  ): Record<CpuLabel, number> {
    const secs = Object.fromEntries(CPU_LABELS.map((label) => [label, 0])) as Record<CpuLabel, number>;
    for (const [pid, { label, ticks }] of after.at) secs[label] += (ticks - (before.at.get(pid)?.ticks ?? 0)) / CLK_TCK;
    secs.loadgen = (after.loadgenMicros - before.loadgenMicros) / 1e6;
    return secs;
  }

  /**
   * The share of the machine's CPU time (all cores, kernel and interrupts included) that was busy between two
   * snapshots: near 1 a run was bound by CPU; well below it, by waiting (batches, locks, round trips).
   */
  static machineBusy(before: Awaited<ReturnType<CpuSampler['snapshot']>>, after: Awaited<ReturnType<CpuSampler['snapshot']>>): number {
    const total = after.machine.total - before.machine.total;
    return total > 0 ? 1 - (after.machine.idle - before.machine.idle) / total : NaN;
  }

  /** Bytes of WAL the server wrote between two snapshots. */
  static walBytes(before: Awaited<ReturnType<CpuSampler['snapshot']>>, after: Awaited<ReturnType<CpuSampler['snapshot']>>): number {
    return Number(after.walBytes - before.walBytes);
  }
}
