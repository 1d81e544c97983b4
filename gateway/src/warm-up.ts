import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApolloServer } from '@apollo/server';
import type { FastifyBaseLogger } from 'fastify';
import {
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  parse,
  typeFromAST,
  Kind,
} from 'graphql';
import { projectRoot } from '@lib/config/project-root';
import type { GatewayContext } from './gateway-context';

/**
 * Runs every fixed REST operation (and every trusted app document) once at start-up with a warm-up context (the data source answers without
 * calling a subgraph), so the parse/validation and query-plan caches hold them before the first request.
 * Required variables get placeholder values of the right type: without them no plan would be built.
 */
export interface WarmUpDocument {
  name: string;
  document: string;
}

export async function warmUp(
  apollo: ApolloServer<GatewayContext>,
  schema: GraphQLSchema,
  log: FastifyBaseLogger,
  extra: readonly WarmUpDocument[] = [],
): Promise<number> {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot(), 'gateway', 'operations.json'), 'utf8')) as {
    operations: WarmUpDocument[];
  };
  const operations = [...manifest.operations, ...extra];
  let planned = 0;
  for (const operation of operations) {
    const result = await apollo.executeOperation(
      { query: operation.document, operationName: operation.name, variables: placeholderVariables(schema, operation.document) },
      { contextValue: { principal: { kind: 'anonymous' }, principalToken: '', requestId: 'warm-up', warmup: true } },
    );
    const errors = result.body.kind === 'single' ? result.body.singleResult.errors : undefined;
    if (errors?.length) log.warn({ operation: operation.name, error: errors[0].message }, 'operation not warmed');
    else planned += 1;
  }
  log.info({ operations: operations.length, planned }, 'query plans warmed');
  return planned;
}

export function placeholderVariables(schema: GraphQLSchema, document: string): Record<string, unknown> {
  const operation = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const variables: Record<string, unknown> = {};
  for (const definition of operation?.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (type && isNonNullType(type) && !definition.defaultValue) variables[definition.variable.name.value] = placeholder(type);
  }
  return variables;
}

function placeholder(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return placeholder(type.ofType);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0]?.name;
  if (isInputObjectType(type)) {
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
        .map((field) => [field.name, placeholder(field.type)]),
    );
  }
  const scalars: Record<string, unknown> = {
    Int: 1,
    SafeInt: 1,
    Float: 1,
    Boolean: false,
    DateTime: '2026-01-01T00:00:00Z',
    Date: '2026-01-01',
    UUID: '00000000-0000-0000-0000-000000000000',
    JSONObject: {},
  };
  return type.name in scalars ? scalars[type.name] : 'warm-up';
}
