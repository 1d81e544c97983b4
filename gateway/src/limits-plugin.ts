import type { ApolloServerPlugin } from '@apollo/server';
import { type FragmentDefinitionNode, Kind } from 'graphql';
import type { Config } from '@lib/config/config';
import { AppError, ErrorCode } from '@lib/errors/app-error';
import type { GatewayContext } from './gateway-context';
import { measureOperation } from './limits';

/**
 * Depth and cost limits, checked once the operation is resolved and before anything is planned or executed
 * (docs/graphql.md "Limits"). The computed cost is reported in every answer's `extensions.cost`
 * ({requested, limit}); a refused operation carries it too.
 */
export function limitsPlugin(limits: Config['gatewayLimits']): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      let requested: number | undefined;
      return {
        async didResolveOperation({ operation, document, request, schema }) {
          if (!operation) return;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const definition of document.definitions) {
            if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
          }
          const measure = measureOperation(schema, operation, fragments, request.variables ?? {});
          requested = measure.cost;
          const cost = { requested: measure.cost, limit: limits.maxCost };
          if (measure.depth > limits.maxDepth) {
            throw new AppError(`the operation is ${measure.depth} levels deep; at most ${limits.maxDepth}`, ErrorCode.QUERY_TOO_DEEP, {
              depth: measure.depth,
              maxDepth: limits.maxDepth,
              http: { status: 400 },
            });
          }
          if (measure.cost > limits.maxCost) {
            throw new AppError(`the operation may cost ${measure.cost}; at most ${limits.maxCost}`, ErrorCode.QUERY_TOO_COSTLY, {
              cost,
              http: { status: 400 },
            });
          }
        },
        async willSendResponse({ response }) {
          if (requested === undefined || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, cost: { requested, limit: limits.maxCost } };
        },
      };
    },
  };
}
