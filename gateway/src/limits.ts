import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isObjectType,
  isInterfaceType,
  valueFromASTUntyped,
  OperationTypeNode,
} from 'graphql';

/** Arguments that bound how many items a list field returns, in order of preference. */
const SIZE_ARGUMENTS = ['first', 'last', 'limit'];
/** The assumed size of a list field without a size argument (e.g. a merchant's outlets). */
export const DEFAULT_LIST_SIZE = 10;

export interface OperationMeasure {
  depth: number;
  cost: number;
}

/**
 * Static depth and cost of an operation, before execution (docs/graphql.md "Limits"). Depth counts nested field
 * selections (fragments expanded). Cost: every field returning an object costs 1 per object it can return; a list
 * field multiplies its own cost and its sub-selection's by its `first`/`last`/`limit` argument (the variable's or
 * the schema default's value), or by DEFAULT_LIST_SIZE without one. Scalars cost nothing. Introspection fields
 * (`__schema`, `__type`) are not counted.
 */
export function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): OperationMeasure {
  const root =
    operation.operation === OperationTypeNode.MUTATION
      ? schema.getMutationType()
      : operation.operation === OperationTypeNode.SUBSCRIPTION
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return { depth: 0, cost: 0 };
  const argument = (node: ValueNode): unknown => valueFromASTUntyped(node, variables);

  // `pageSize`: the size argument of an enclosing connection field (`transactions(first: 20) { edges … }`),
  // which bounds its list children (edges, nodes) instead of the default.
  const walk = (
    selectionSet: SelectionSetNode,
    parent: GraphQLNamedType,
    depth: number,
    seen: Set<string>,
    pageSize?: number,
  ): OperationMeasure => {
    let maxDepth = depth;
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        const field = fieldOf(parent, selection);
        if (!field) continue;
        const named = getNamedType(field.type);
        const size = sizeArgument(field, selection, argument);
        const list = isListType(getNullableType(field.type));
        const inner =
          selection.selectionSet && isCompositeType(named)
            ? walk(selection.selectionSet, named, depth + 1, seen, list ? undefined : size)
            : { depth: depth + 1, cost: 0 };
        maxDepth = Math.max(maxDepth, inner.depth);
        if (!isCompositeType(named)) continue;
        cost += (list ? (size ?? pageSize ?? DEFAULT_LIST_SIZE) : 1) * (1 + inner.cost);
      } else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments[selection.name.value];
        if (!fragment || (selection.kind === Kind.FRAGMENT_SPREAD && seen.has(selection.name.value))) continue;
        const typeName = fragment.typeCondition?.name.value;
        const target = (typeName && schema.getType(typeName)) || parent;
        const next = selection.kind === Kind.FRAGMENT_SPREAD ? new Set([...seen, selection.name.value]) : seen;
        const inner = walk(fragment.selectionSet, target, depth, next, pageSize);
        maxDepth = Math.max(maxDepth, inner.depth);
        cost += inner.cost;
      }
    }
    return { depth: maxDepth, cost };
  };
  return walk(operation.selectionSet, root, 0, new Set());
}

function fieldOf(parent: GraphQLNamedType, node: FieldNode): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[node.name.value] : undefined;
}

function sizeArgument(field: GraphQLField<unknown, unknown>, node: FieldNode, argument: (node: ValueNode) => unknown): number | undefined {
  for (const name of SIZE_ARGUMENTS) {
    const given = node.arguments?.find((a) => a.name.value === name);
    const value = given ? argument(given.value) : field.args.find((a) => a.name === name)?.defaultValue;
    if (typeof value === 'number' && Number.isFinite(value)) return Math.max(1, Math.floor(value));
  }
  return undefined;
}
