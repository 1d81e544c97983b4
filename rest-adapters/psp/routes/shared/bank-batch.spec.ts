import type { FastifyBaseLogger } from 'fastify';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import type { Principal } from '@lib/auth/principal';
import type { Config } from '@lib/config/config';
import { HttpError } from '@lib/rest/error-body';
import type { RouteRuntime } from '@lib/rest/route';
import { type BankCall, bankBatch, perBank } from './bank-batch';

/**
 * The batching rules of bank calls, without a graph: which calls go together, as whom, and what happens when the
 * graph refuses a batch. The graph side (principal `banks`, per-item scope) is tested in the subgraphs and e2e.
 */
const bankA: BankPrincipal = { kind: 'bank', bankId: 'a', bankCode: 'BANKA', tier: 2 };
const bankB: BankPrincipal = { kind: 'bank', bankId: 'b', bankCode: 'BANKB', tier: 2 };

interface Call extends BankCall {
  n: number;
}

function setup(together: (calls: Call[]) => Promise<(string | Error)[]>) {
  const actingSeen: (Principal | undefined)[] = [];
  const alone: number[] = [];
  const warnings: object[] = [];
  const config = { bankBatch: { max: 100, inFlight: 1 } } as Config;
  const runtime: RouteRuntime = {
    config,
    execute: async <T>(_operation: unknown, _variables: unknown, options?: { acting?: Principal }) => {
      actingSeen.push(options?.acting);
      return undefined as T;
    },
  };
  const log = { warn: (obj: object) => warnings.push(obj) } as unknown as FastifyBaseLogger;
  const submit = bankBatch<Call, string>({
    alone: async ({ n }) => {
      alone.push(n);
      if (n < 0) throw new HttpError(400, 'bad_request', `bad ${n}`);
      return `alone ${n}`;
    },
    together: async (calls, execute) => {
      await execute({ document: '', name: 'Test' }, {});
      return together(calls);
    },
  });
  const call = (n: number, bank = bankA) => submit({ n, bank, runtime, log }).catch((e: HttpError) => `${e.status} ${e.message}`);
  return { call, actingSeen, alone, warnings };
}

describe('bankBatch', () => {
  it('sends a lone call alone, and calls arriving together as one batch acting for each of their banks once', async () => {
    const { call, actingSeen, alone } = setup(async (calls) => calls.map(({ n }) => `together ${n}`));
    expect(await call(1)).toBe('alone 1');
    expect(await Promise.all([call(2, bankA), call(3, bankB), call(4, bankA)])).toEqual(['together 2', 'together 3', 'together 4']);
    expect(alone).toEqual([1]);
    expect(actingSeen).toEqual([{ kind: 'banks', banks: [bankA, bankB] }]);
  });

  it('sends the calls of a batch the graph refuses with a 4xx one by one: only the call at fault fails', async () => {
    const { call, alone, warnings } = setup(async () => {
      throw new HttpError(400, 'bad_request', 'one item is invalid');
    });
    expect(await Promise.all([call(5), call(-6, bankB), call(7)])).toEqual(['alone 5', '400 bad -6', 'alone 7']);
    expect(alone).toEqual([5, -6, 7]);
    expect(warnings).toEqual([{ code: 'bad_request', calls: 3 }]);
  });

  it('sends the calls of a batch that fails with a 500 (one item the database refused) one by one: another bank is not failed', async () => {
    const { call, alone, warnings } = setup(async () => {
      throw new HttpError(500, 'internal_error', 'internal error');
    });
    expect(await Promise.all([call(13), call(-14, bankB), call(15)])).toEqual(['alone 13', '400 bad -14', 'alone 15']);
    expect(alone).toEqual([13, -14, 15]);
    expect(warnings).toEqual([{ code: 'internal_error', calls: 3 }]);
  });

  it('fails every call of a batch whose graph is unavailable, without retrying them one by one', async () => {
    const { call, alone } = setup(async () => {
      throw new HttpError(503, 'service_unavailable', 'a dependency is unavailable, retry later');
    });
    const answers = await Promise.all([call(8), call(9, bankB)]);
    expect(answers).toEqual(['503 a dependency is unavailable, retry later', '503 a dependency is unavailable, retry later']);
    expect(alone).toEqual([]);
  });

  it('fails only the item the graph answered with an error', async () => {
    const { call } = setup(async (calls) =>
      calls.map(({ n }) => (n === 11 ? new HttpError(400, 'bad_request', 'invalid event') : `together ${n}`)),
    );
    expect(await Promise.all([call(10), call(11), call(12)])).toEqual(['together 10', '400 invalid event', 'together 12']);
  });
});

describe('perBank', () => {
  it('runs once per bank, with its calls in order and acting as that bank alone, and answers in the order of the calls', async () => {
    const acting: (Principal | undefined)[] = [];
    const runtime: RouteRuntime = {
      config: {} as Config,
      execute: async <T>(_operation: unknown, _variables: unknown, options?: { acting?: Principal }) => {
        acting.push(options?.acting);
        return undefined as T;
      },
    };
    const log = {} as FastifyBaseLogger;
    const calls: Call[] = [1, 2, 3, 4].map((n) => ({ n, bank: n % 2 === 0 ? bankB : bankA, runtime, log }));
    const groups: number[][] = [];
    const answers = await perBank(calls, async (ofBank, execute) => {
      groups.push(ofBank.map(({ n }) => n));
      await execute({ document: '', name: 'Test' }, {});
      return ofBank.map(({ n, bank }) => `${bank.bankCode} ${n}`);
    });
    expect(answers).toEqual(['BANKA 1', 'BANKB 2', 'BANKA 3', 'BANKB 4']);
    expect(groups).toEqual([
      [1, 3],
      [2, 4],
    ]);
    expect(acting).toEqual([bankA, bankB]);
  });
});
