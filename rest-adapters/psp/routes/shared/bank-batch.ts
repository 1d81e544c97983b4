import type { FastifyBaseLogger } from 'fastify';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import type { Config } from '@lib/config/config';
import { HttpError } from '@lib/rest/error-body';
import { MicroBatcher } from '@lib/rest/micro-batch';
import type { Execute, RouteRuntime } from '@lib/rest/route';

/** One bank's verified call, waiting to go to the graph with others. */
export interface BankCall {
  bank: BankPrincipal;
  runtime: RouteRuntime;
  /** The request's logger. */
  log: FastifyBaseLogger;
}

export interface BankBatchHandlers<I extends BankCall, O> {
  /** A call that leaves alone, acting as its bank. */
  alone(item: I): Promise<O>;
  /** Several calls of possibly several banks: one result (or Error) per item; `execute` acts for all of their banks. */
  together(items: I[], execute: Execute): Promise<(O | Error)[]>;
}

/**
 * Calls of every bank that arrive together go to the graph together (lib/rest/micro-batch.ts), acting as the
 * principal `banks`: the subgraphs scope each item as the bank it names (lib/domain/access/bank-scope.ts). One batcher per
 * REST app (keyed by its configuration object). A batch that fails as a whole for any reason but an unavailable
 * graph (503: one call alone would fail the same) is sent again call by call, so only the call at fault fails and
 * one bank's call never fails another's. docs/decisions/0032-micro-batching-bank-calls.md.
 */
export function bankBatch<I extends BankCall, O>(handlers: BankBatchHandlers<I, O>): (item: I) => Promise<O> {
  const batchers = new WeakMap<Config, MicroBatcher<I, O>>();
  const send = async (items: I[]): Promise<(O | Error)[]> => {
    if (items.length === 1) return [await handlers.alone(items[0])];
    const banks = [...new Map(items.map(({ bank }) => [bank.bankCode, bank])).values()];
    // The request id of the first call traces the batch.
    const execute: Execute = (operation, variables) => items[0].runtime.execute(operation, variables, { acting: { kind: 'banks', banks } });
    try {
      return await handlers.together(items, execute);
    } catch (error) {
      if (error instanceof HttpError && error.status === 503) throw error;
      // Never expected (each call was validated): worth a look, but only the call at fault may fail.
      const code = error instanceof HttpError ? error.code : (error as object | undefined)?.constructor?.name;
      items[0].log.warn({ code, calls: items.length }, 'a bank batch failed as a whole; sending its calls one by one');
      return Promise.all(items.map((item) => handlers.alone(item).catch(asError)));
    }
  };
  return (item) => {
    let batcher = batchers.get(item.runtime.config);
    if (!batcher) {
      const { max, inFlight } = item.runtime.config.bankBatch;
      batcher = new MicroBatcher(send, { maxBatch: max, maxInFlight: inFlight });
      batchers.set(item.runtime.config, batcher);
    }
    return batcher.submit(item);
  };
}

/**
 * Runs `run` once per bank of `calls`, with that bank's calls and an `execute` acting as that bank alone (principal
 * `bank`), all banks at once; the answers in the order of `calls`. For the reads whose scope only the principal can
 * carry: the owners' by-NMID read, whose merchant the merchant subgraph resolves knowing the principal but not the
 * item (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md).
 */
export async function perBank<C extends BankCall, R>(calls: C[], run: (calls: C[], execute: Execute) => Promise<R[]>): Promise<R[]> {
  const groups = new Map<string, number[]>();
  calls.forEach(({ bank }, i) => groups.set(bank.bankCode, [...(groups.get(bank.bankCode) ?? []), i]));
  const answers = new Array<R>(calls.length);
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const { bank, runtime } = calls[indexes[0]];
      const asBank: Execute = (operation, variables) => runtime.execute(operation, variables, { acting: bank });
      const ofBank = indexes.map((i) => calls[i]);
      const answered = await run(ofBank, asBank);
      indexes.forEach((i, k) => (answers[i] = answered[k]));
    }),
  );
  return answers;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
