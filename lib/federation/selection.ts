import {
  type GraphQLResolveInfo,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type SelectionSetNode,
  getDirectiveValues,
} from 'graphql';

/**
 * The field paths a resolver's selection asks for below it (`merchant`, `merchant.nmid`, …), fragments followed and
 * `@skip`/`@include` applied, down to `depth` levels: a resolver that can read several levels in one statement
 * (a subgraph's bank-view fetch) asks this what to read ahead instead of reading everything.
 */
export function selectedPaths(info: GraphQLResolveInfo, depth = 2): Set<string> {
  const paths = new Set<string>();
  const visit = (set: SelectionSetNode | undefined, prefix: string, level: number) => {
    if (!set || level > depth) return;
    for (const node of set.selections) {
      if (!included(node, info)) continue;
      if (node.kind === Kind.FIELD) {
        const path = prefix + node.name.value;
        paths.add(path);
        visit(node.selectionSet, `${path}.`, level + 1);
      } else if (node.kind === Kind.INLINE_FRAGMENT) {
        visit(node.selectionSet, prefix, level);
      } else {
        visit(info.fragments[node.name.value]?.selectionSet, prefix, level);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet, '', 1);
  return paths;
}

function included(node: SelectionSetNode['selections'][number], info: GraphQLResolveInfo): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, info.variableValues)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues)?.if !== false;
}
