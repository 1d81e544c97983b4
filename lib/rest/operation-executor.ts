import type { Principal } from '../auth/principal';
import { httpErrorFromGraphQL, httpErrorFromStatus, serviceUnavailable } from './error-map';
import { HttpError } from './error-body';
import type { FixedOperationDocument } from './operation';

export interface ExecuteOptions {
  requestId: string;
  /** Who the adapter acts for; omitted, the adapter acts as itself (public data, health). */
  acting?: Principal;
  /** This call's deadline when longer than the default (a route's `timeoutMs`); the subgraph fetches get it too. */
  timeoutMs?: number;
  /** The adapter whose route or background work runs the operation (`psp`, `partner`, `core`). */
  adapter?: string;
}

/** Runs the adapters' fixed operations; GraphQL errors come back as the documented HTTP errors. */
export interface OperationExecutor {
  execute<TResult, TVariables>(
    operation: FixedOperationDocument<TResult, TVariables>,
    variables: TVariables,
    options: ExecuteOptions,
  ): Promise<TResult>;
  close(): Promise<void>;
}

export interface GraphQLResponse<TResult> {
  data?: TResult | null;
  errors?: readonly { message?: string; extensions?: Record<string, unknown> }[];
}

/**
 * What runs an operation in this process: the gateway's executor (gateway/src/executor.ts), named here by its shape
 * so that lib/ does not depend on gateway/.
 */
export interface GraphRunner {
  execute<TData>(
    request: { query: string; operationName?: string; variables?: Record<string, unknown> },
    caller: { principal: Principal; requestId: string; subgraphTimeoutMs?: number },
  ): Promise<{ result: GraphQLResponse<TData>; status: number }>;
  close(): Promise<void>;
}

/**
 * The REST process's executor: each fixed operation runs on the graph runner of this process (docs/decisions/0009-how-operations-execute.md),
 * acting for the caller the adapter authenticated (or as the adapter itself), within the route's deadline
 * (GATEWAY_TIMEOUT_MS unless the route asks for longer): past it the call answers 503 service_unavailable.
 */
export class GraphOperations implements OperationExecutor {
  constructor(
    private readonly graph: GraphRunner,
    private readonly service: string,
    private readonly defaultTimeoutMs: number,
  ) {}

  async execute<TResult, TVariables>(
    operation: FixedOperationDocument<TResult, TVariables>,
    variables: TVariables,
    options: ExecuteOptions,
  ): Promise<TResult> {
    const caller = {
      principal: options.acting ?? { kind: 'service' as const, service: this.service },
      requestId: options.requestId,
      subgraphTimeoutMs: options.timeoutMs,
    };
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(serviceUnavailable()), options.timeoutMs ?? this.defaultTimeoutMs);
    });
    try {
      const request = { query: operation.document, operationName: operation.name, variables: variables as Record<string, unknown> };
      const { result, status } = await Promise.race([this.graph.execute<TResult>(request, caller), deadline]);
      return dataOf(result, status);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.graph.close();
  }
}

/**
 * Each call on the executor `choose` names for it (the REST process: one per operations thread, by API family and
 * kind, docs/decisions/0009-how-operations-execute.md).
 */
export function executorChoosing<K extends string>(
  executors: Record<K, OperationExecutor>,
  choose: (operation: { name: string; document: string }, options: ExecuteOptions) => K,
): OperationExecutor {
  return {
    execute: (operation, variables, options) => executors[choose(operation, options)].execute(operation, variables, options),
    close: async () => {
      await Promise.all(Object.values<OperationExecutor>(executors).map((executor) => executor.close()));
    },
  };
}

/**
 * The data of a GraphQL answer (`status`: its HTTP status), or the documented HTTP error: the first GraphQL error
 * mapped, a 4xx of the gateway itself as the closest documented 4xx, no answer a 503.
 */
export function dataOf<TResult>(payload: GraphQLResponse<TResult> | undefined, status: number): TResult {
  if (payload?.errors?.length) throw httpErrorFromGraphQL(payload.errors[0], status);
  if (status >= 400 && status < 500) throw httpErrorFromStatus(status);
  if (!payload) throw serviceUnavailable();
  if (!payload.data) throw new HttpError(500, 'internal_error', 'internal error');
  return payload.data;
}

/** The executor of an app built only for its documentation (the OpenAPI document): every call answers 503. */
export const NO_OPERATIONS: OperationExecutor = {
  execute: () => Promise.reject(serviceUnavailable('this app runs no operations')),
  close: async () => undefined,
};
