import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { type ASTNode, type ArgumentNode, type DocumentNode, Kind, type ObjectFieldNode, visit } from 'graphql';
import type { Registry } from 'prom-client';
import { AppError, ErrorCode } from '../errors/app-error';
import { GRAPHQL_VARIABLES_MAX_DEPTH } from '../http/request-limits';
import { unstorableText } from '../http/storable-input';
import { operationMetricsPlugin } from './operation-metrics';

/** What every Apollo Server of the platform (the four subgraphs, the gateway process, REST's in-process gateway) sets alike. */
export const APOLLO_SERVER_SETTINGS = {
  includeStacktraceInErrorResponses: false,
  // The process stops on SIGTERM by closing fastify (lib/http/listen.ts: in-flight requests finish, spans are
  // flushed, exit 0); Apollo's own handler would re-raise the signal and kill the process half-way.
  stopOnTerminationSignals: false,
  // Compact JSON: Apollo's default pretty-prints every response, which costs measurably on 500-row lists.
  stringifyResult: (result: unknown) => JSON.stringify(result),
} as const;

/** Plugins of every Apollo Server here: no inline traces, no cache-control (no cache hints are used; its
 * willResolveField would wrap every field resolver), and graphql_operation_duration_seconds in `registry`. */
export function apolloBasePlugins<TContext extends BaseContext>(registry: Registry): ApolloServerPlugin<TContext>[] {
  return [
    ApolloServerPluginCacheControlDisabled(),
    ApolloServerPluginInlineTraceDisabled(),
    operationMetricsPlugin(registry) as ApolloServerPlugin<TContext>,
  ];
}

/**
 * The gateway's (its process and REST's in-process one): every client operation enters there, and a subgraph's
 * fetches carry only what it let through and rows already stored. Refuses, before anything runs, an operation whose variables or string literals PostgreSQL could not store (NUL, a
 * lone surrogate) or whose variables nest deeper than GRAPHQL_VARIABLES_MAX_DEPTH: 400 BAD_USER_INPUT, never a
 * database error (docs/decisions/0007-input-validation-and-bounds.md).
 */
export function storableInputPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const problem = unstorableVariable(request.variables) ?? unstorableLiteral(document);
          if (problem) throw new AppError(problem, ErrorCode.BAD_USER_INPUT, { http: { status: 400 } });
        },
      };
    },
  };
}

/** Documents come from Apollo's parse cache, the same object for the same text: each is read once. */
const literalProblems = new WeakMap<DocumentNode, string | undefined>();

/** Why a variable cannot be stored, naming it, or undefined when all can. */
function unstorableVariable(variables: Record<string, unknown> | undefined): string | undefined {
  for (const [name, value] of Object.entries(variables ?? {})) {
    const problem = unstorableText(value, GRAPHQL_VARIABLES_MAX_DEPTH);
    if (problem) return `Variable "$${name}" got invalid value: ${problem}`;
  }
  return undefined;
}

/** Why a string literal of the document cannot be stored, naming its argument or input field, or undefined when all can. */
function unstorableLiteral(document: DocumentNode): string | undefined {
  if (literalProblems.has(document)) return literalProblems.get(document);
  let problem: string | undefined;
  visit(document, {
    [Kind.STRING]: (node, _key, parent, _path, ancestors) => {
      const text = problem ? undefined : unstorableText(node.value);
      if (!text) return;
      const owner = [...ancestors, parent].findLast(isArgumentOrField);
      const label = owner ? `${owner.kind === Kind.ARGUMENT ? 'Argument' : 'Field'} "${owner.name.value}"` : 'A string';
      problem = `${label} got invalid value: ${text}`;
    },
  });
  literalProblems.set(document, problem);
  return problem;
}

function isArgumentOrField(node: unknown): node is ArgumentNode | ObjectFieldNode {
  const kind = (node as ASTNode | undefined)?.kind;
  return kind === Kind.ARGUMENT || kind === Kind.OBJECT_FIELD;
}
