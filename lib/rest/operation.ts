import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, parse, print, visit, Kind } from 'graphql';

/**
 * A fixed GraphQL operation, read once from its file, complete with the fragments it spreads. The type
 * parameters are its result and variables as generated from the schema (rest-adapters/generated/operations.ts):
 * `execute(operation, variables)` infers both, so a mapper that no longer fits the operation fails to compile.
 */
export interface FixedOperationDocument<TResult = unknown, TVariables = Record<string, unknown>> {
  name: string;
  document: string;
  /** Types only (never set), as in a TypedDocumentNode. */
  readonly __apiType?: (variables: TVariables) => TResult;
}

export const FRAGMENT_SUFFIX = '.fragment.graphql';

/** The folder holding lib/ and rest-adapters/: the project root from source, dist/ when built. */
const LAYOUT_ROOT = path.resolve(__dirname, '../..');

let fragments: Map<string, FragmentDefinitionNode> | undefined;

/**
 * Shared selections live in `*.fragment.graphql` files under rest-adapters/ (e.g. the merchant fields every
 * bank lookup returns); fragment names are unique across them.
 */
function fragmentLibrary(): Map<string, FragmentDefinitionNode> {
  if (fragments) return fragments;
  fragments = new Map();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith(FRAGMENT_SUFFIX)) {
        for (const definition of parse(readFileSync(full, 'utf8')).definitions) {
          if (definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
          if (fragments!.has(definition.name.value)) throw new Error(`fragment ${definition.name.value} is defined twice`);
          fragments!.set(definition.name.value, definition);
        }
      }
    }
  };
  // Beside this module in both layouts: lib/rest → rest-adapters (source), dist/lib/rest → dist/rest-adapters.
  walk(path.join(LAYOUT_ROOT, 'rest-adapters'));
  return fragments;
}

/** The document with every fragment it spreads (transitively) appended, so it is complete on its own. */
export function withFragments(source: string): string {
  const document = parse(source);
  const library = fragmentLibrary();
  const needed = new Map<string, FragmentDefinitionNode>();
  const collect = (node: DocumentNode | FragmentDefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (needed.has(name) || document.definitions.some((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name)) return;
        const fragment = library.get(name);
        if (!fragment) throw new Error(`unknown fragment ${name}`);
        needed.set(name, fragment);
        collect(fragment);
      },
    });
  collect(document);
  return needed.size === 0 ? source : `${source.trimEnd()}\n\n${[...needed.values()].map((f) => print(f)).join('\n\n')}\n`;
}

/** An operation file, untyped (tests; the adapters use the generated, typed documents). */
export function loadOperation(routeDir: string, file = 'operation.graphql'): FixedOperationDocument {
  const document = withFragments(readFileSync(path.join(routeDir, file), 'utf8'));
  const operation = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation?.name) throw new Error(`${routeDir}/${file}: needs one named operation`);
  return { name: operation.name.value, document };
}

/**
 * The operation named `name` in `file` (relative to the project root), typed by the caller: the generated
 * documents of rest-adapters/generated/operations.ts are made with it. Refuses a file holding another operation.
 */
export function fixedOperation<TResult, TVariables>(name: string, file: string): FixedOperationDocument<TResult, TVariables> {
  const operation = loadOperation(path.dirname(path.join(LAYOUT_ROOT, file)), path.basename(file));
  if (operation.name !== name) throw new Error(`${file} holds ${operation.name}, not ${name}: run \`npm run codegen\``);
  return operation as FixedOperationDocument<TResult, TVariables>;
}
