import { type GraphQLResolverMap, buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { GraphQLError, GraphQLScalarType, type GraphQLSchema, type ValueNode, parse } from 'graphql';
import { DateTimeResolver } from 'graphql-scalars';
import { type BuildSchemaOptions, buildSchema, createResolversMap } from 'type-graphql';
import type { PrincipalKind } from '../auth/principal';
import { AppError, ErrorCode, ForbiddenError } from '../errors/app-error';
import { storableInstant } from '../http/storable-input';
import type { SubgraphContext } from './subgraph-context';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag"])\n';

/** `__resolveReference` functions keyed by entity type name; each should go through a DataLoader. */
export type ReferenceResolvers = Record<string, { __resolveReference: (ref: any, ctx: any) => unknown }>;

/**
 * type-graphql → Federation 2 subgraph schema, the one way all subgraphs build theirs: build with
 * type-graphql (skipCheck, federation types come later), print with directives, prepend the @link and
 * let @apollo/subgraph add _entities/_service, then merge type-graphql's resolvers with the references.
 */
export async function buildFederatedSchema(
  options: Omit<BuildSchemaOptions, 'skipCheck' | 'authChecker'>,
  referenceResolvers: ReferenceResolvers = {},
): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    ...options,
    skipCheck: true,
    authChecker: principalAuthChecker,
    authMode: 'error',
    validate: false,
  });
  const typeDefs = parse(FEDERATION_LINK + printSchemaWithDirectives(schema));
  const resolvers = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  if (resolvers.DateTime) resolvers.DateTime = StorableDateTime;
  for (const [typeName, reference] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), ...reference };
  }
  return buildSubgraphSchema([{ typeDefs, resolvers }]);
}

/**
 * `@Authorized(...kinds)` lists the principal kinds allowed to call a field; `@Authorized()` alone means
 * any authenticated (non-anonymous) principal. Public fields say `@Authorized(PUBLIC)`.
 */
export const PUBLIC = 'anonymous' as const satisfies PrincipalKind;

// An arrow function: type-graphql would take a `function` declaration for an auth-checker class.
const principalAuthChecker = ({ context }: { context: SubgraphContext }, kinds: string[]): boolean => {
  const kind = context.principal.kind;
  if (kinds.includes(PUBLIC) || kinds.includes(kind) || (kinds.length === 0 && kind !== 'anonymous')) return true;
  if (kind === 'anonymous') throw new AppError('authentication required', ErrorCode.UNAUTHENTICATED);
  throw new ForbiddenError();
};

/**
 * graphql-scalars' `DateTime`, accepting only instants of years 0001 to 9999 (UTC) as input: PostgreSQL has no year 0,
 * and a JavaScript date outside them prints in a form it cannot read. Outside them: a variable or literal error (400).
 */
const StorableDateTime = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  parseValue: (value: unknown) => storable(DateTimeResolver.parseValue(value) as Date),
  parseLiteral: (node: ValueNode, variables) => storable(DateTimeResolver.parseLiteral(node, variables) as Date),
});

function storable(date: Date): Date {
  if (!storableInstant(date.getTime())) throw new GraphQLError('DateTime must be within the years 0001 to 9999 (UTC)');
  return date;
}
