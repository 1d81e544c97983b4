import {
  type ASTVisitor,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLScalarType,
  type GraphQLSchema,
  Kind,
  type ValidationContext,
  type ValueNode,
  getNamedType,
  isScalarType,
  print,
} from 'graphql';
import { DateTimeResolver, JSONObjectResolver, SafeIntResolver } from 'graphql-scalars';
import { ErrorCode } from '@lib/errors/app-error';

/**
 * The custom scalars of the subgraphs, as they parse them. The supergraph carries only their names, so the gateway
 * would pass any value on and a subgraph would refuse it; with these the gateway refuses a bad value itself as
 * BAD_USER_INPUT naming the variable or argument (docs/decisions/0008-request-size-and-time-limits.md).
 */
const SUBGRAPH_SCALARS = new Map<string, GraphQLScalarType>(
  [DateTimeResolver, SafeIntResolver, JSONObjectResolver].map((scalar) => [scalar.name, scalar]),
);

/**
 * Gives the API schema's custom scalars the subgraphs' variable parsing: the gateway coerces every operation's
 * variables against it before planning (an invalid one answers BAD_USER_INPUT `Variable "$x" got invalid value …`),
 * and still forwards the variables as sent.
 */
export function adoptSubgraphScalars(apiSchema: GraphQLSchema): void {
  for (const [name, implementation] of SUBGRAPH_SCALARS) {
    const scalar = apiSchema.getType(name);
    if (isScalarType(scalar)) scalar.parseValue = implementation.parseValue.bind(implementation);
  }
}

/** A literal argument value a custom scalar refuses; answered as BAD_USER_INPUT (`formatScalarValueError`). */
class InvalidScalarLiteral extends GraphQLError {}

/** Refuses a literal (an argument or input field written in the document) that its custom scalar does not parse. */
export function scalarLiteralsRule(context: ValidationContext): ASTVisitor {
  const check = (label: string, value: ValueNode) => {
    const scalar = SUBGRAPH_SCALARS.get(getNamedType(context.getInputType())?.name ?? '');
    if (!scalar) return;
    const literals = value.kind === Kind.LIST ? value.values : [value];
    for (const literal of literals) {
      if (literal.kind === Kind.VARIABLE || literal.kind === Kind.NULL) continue;
      try {
        scalar.parseLiteral(literal, undefined);
      } catch (error) {
        context.reportError(
          new InvalidScalarLiteral(`${label} got invalid value ${print(literal)}; ${(error as Error).message}`, { nodes: literal }),
        );
      }
    }
  };
  return {
    Argument: (node) => check(`Argument "${node.name.value}"`, node.value),
    ObjectField: (node) => check(`Field "${node.name.value}"`, node.value),
  };
}

/** A validation error from `scalarLiteralsRule` is the caller's input: BAD_USER_INPUT, as an invalid variable is. */
export function formatScalarValueError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  if (!(error instanceof GraphQLError && error.originalError instanceof InvalidScalarLiteral)) return formatted;
  return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.BAD_USER_INPUT } };
}
