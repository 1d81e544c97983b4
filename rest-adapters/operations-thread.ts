import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ROOT_CONTEXT, context, propagation } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '@lib/auth/principal';
import type { Config } from '@lib/config/config';
import type { MetricsJson as Metrics } from '@lib/http/metrics';
import { serviceUnavailable } from '@lib/rest/error-map';
import type { GraphQLResponse, GraphRunner } from '@lib/rest/operation-executor';

/**
 * Which operations a thread runs: the bank API's reads (lookups, lists, search), its writes (events, settlements,
 * NMID assignment), or the partner, core and point-of-sale APIs'.
 */
export type ThreadName = 'bank' | 'intake' | 'app';

/**
 * The REST process's operations threads per role (docs/decisions/0009-how-operations-execute.md): two for the bank's
 * reads, one for its writes, two for the partner, core and point-of-sale APIs, each call to the thread of its role
 * holding fewer (`LeastBusy`), so that a by-NMID lookup does not wait behind a merchant list, nor an app's light read
 * behind a scoring summary or a month of transactions.
 */
export const THREADS: Readonly<Record<ThreadName, number>> = { bank: 2, intake: 1, app: 2 };
const THREAD_COUNT = Object.values(THREADS).reduce((sum, n) => sum + n, 0);

/** A message from the REST process's main thread to an operations thread. */
export type ToThread =
  | {
      kind: 'execute';
      id: number;
      request: { query: string; operationName?: string; variables?: Record<string, unknown> };
      caller: { principal: Principal; requestId: string; subgraphTimeoutMs?: number };
      /** The caller's trace context (W3C headers), so that the operation's spans join the request's trace. */
      trace: Record<string, string>;
    }
  /** The series gathered so far (`parts`) with the thread's own appended, or (`render`) merged into one exposition. */
  | { kind: 'metrics'; id: number; parts: Metrics[]; render: boolean };

/** A message from the thread: it is ready, or the answer to one request (an operation's, or its metrics). */
export type FromThread =
  | { kind: 'ready' }
  | { kind: 'failed'; message: string }
  | {
      kind: 'answer';
      id: number;
      answer?: { result: GraphQLResponse<unknown>; status: number };
      parts?: Metrics[];
      metrics?: string;
      error?: string;
    };

const ENTRY = path.join(__dirname, 'operations-thread.worker.js');

/**
 * Operations a thread holds at once before it sheds: a call beyond answers 503 with Retry-After at once rather than
 * queue. At the documented mix it holds a few; at 10-50 ms of work each, 64 waiting is already past a second.
 */
export const OPERATIONS_IN_FLIGHT = 64;

/**
 * A worker thread of the REST process running operations on an executor of its own (`operations-thread.worker.ts`).
 * The REST process runs them by role, `THREADS` of each (docs/decisions/0009-how-operations-execute.md).
 * So a 500-item transaction list or a scoring summary computes beside bank calls, and a bank lookup beside a batch
 * of payment events, not after them; and the main thread,
 * which keeps HTTP, authentication, validation, mapping and the cached answers, is free within a millisecond or two
 * for the next request. A call crosses the thread boundary as structured clones, twice. A thread that dies is started
 * again; the calls it held answer 503, and so does a call beyond `OPERATIONS_IN_FLIGHT` (load shed before a queue).
 */
export class OperationsThread implements GraphRunner {
  private worker!: Worker;
  private readonly pending = new Map<number, { resolve(message: FromThread & { kind: 'answer' }): void; reject(error: Error): void }>();
  private nextId = 0;
  private closing = false;

  private constructor(
    private readonly log: FastifyBaseLogger,
    /** The thread's name in logs and in its series' `thread` label: its role, numbered where the role has several. */
    private readonly name: string,
    private readonly entry: string,
  ) {}

  /** Starts the thread from its built entry (`entry`: another script speaking the same messages, in tests). */
  static async start(log: FastifyBaseLogger, name: string, entry = ENTRY): Promise<OperationsThread> {
    const thread = new OperationsThread(log, name, entry);
    await thread.spawn();
    return thread;
  }

  /** Calls sent and not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  async execute<TData>(
    request: { query: string; operationName?: string; variables?: Record<string, unknown> },
    caller: { principal: Principal; requestId: string; subgraphTimeoutMs?: number },
  ): Promise<{ result: GraphQLResponse<TData>; status: number }> {
    if (this.pending.size >= OPERATIONS_IN_FLIGHT) throw serviceUnavailable('the service is busy, retry later');
    const trace: Record<string, string> = {};
    propagation.inject(context.active(), trace);
    const message = await this.ask({ kind: 'execute', id: 0, request, caller, trace });
    if (!message.answer) throw serviceUnavailable();
    return message.answer as { result: GraphQLResponse<TData>; status: number };
  }

  /** `parts` with this thread's series (operations, subgraph fetches, its pools, labelled `thread`) appended. */
  async metricsParts(parts: Metrics[]): Promise<Metrics[]> {
    const answer = await this.ask({ kind: 'metrics', id: 0, parts, render: false });
    if (answer.parts === undefined) throw new Error(`the ${this.name} operations thread sent no metrics`);
    return answer.parts;
  }

  /** `parts` and this thread's series as one exposition, merged on the thread (the main thread pays nothing). */
  async metrics(parts: Metrics[]): Promise<string> {
    const answer = await this.ask({ kind: 'metrics', id: 0, parts, render: true });
    if (answer.metrics === undefined) throw new Error(`the ${this.name} operations thread sent no metrics`);
    return answer.metrics;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }

  private ask(message: ToThread): Promise<FromThread & { kind: 'answer' }> {
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(this.entry, { workerData: { name: this.name } });
      this.worker = worker;
      worker.on('message', (message: FromThread) => {
        if (message.kind === 'ready') resolve();
        else if (message.kind === 'failed') reject(new Error(`the ${this.name} operations thread did not start: ${message.message}`));
        else {
          const waiting = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) waiting?.reject(new Error(message.error));
          else waiting?.resolve(message);
        }
      });
      worker.on('error', (error) => this.log.error({ err: error }, `the ${this.name} operations thread failed`));
      worker.on('exit', (code) => {
        for (const waiting of this.pending.values()) waiting.reject(serviceUnavailable());
        this.pending.clear();
        reject(new Error(`the ${this.name} operations thread exited with ${code} while starting`));
        if (this.closing) return;
        this.log.error({ code }, `the ${this.name} operations thread exited; starting it again`);
        this.spawn().catch((error: Error) => this.log.error({ err: error }, `the ${this.name} operations thread could not start again`));
      });
    });
  }
}

/**
 * The configuration each of the REST process's operations threads opens its subgraphs with: a share of DB_POOL_MAX
 * per subgraph (at least 2), so that the process holds the connections docs/operations.md sizes PostgreSQL for.
 */
export function threadPools(config: Config): Config {
  const poolMax = Math.max(2, Math.ceil(config.database.poolMax / THREAD_COUNT));
  return { ...config, database: { ...config.database, poolMax } };
}

/** Threads of one role: each call goes to the thread holding the fewest calls (the first of them on a tie). */
export class LeastBusy implements GraphRunner {
  constructor(private readonly threads: readonly OperationsThread[]) {}

  execute: GraphRunner['execute'] = (request, caller) =>
    this.threads.reduce((least, thread) => (thread.inFlight < least.inFlight ? thread : least)).execute(request, caller);

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }
}

/** In the thread: runs `work` within the trace context the main thread sent. */
export function withTrace<T>(trace: Record<string, string>, work: () => Promise<T>): Promise<T> {
  return context.with(propagation.extract(ROOT_CONTEXT, trace), work);
}
