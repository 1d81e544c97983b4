import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, parse, print, visit } from 'graphql';

/** A fixed GraphQL operation, read once from the route folder, complete with the fragments it spreads. */
export interface FixedOperationDocument {
  name: string;
  document: string;
}

export const FRAGMENT_SUFFIX = '.fragment.graphql';

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
          if (definition.kind !== 'FragmentDefinition') continue;
          if (fragments!.has(definition.name.value)) throw new Error(`fragment ${definition.name.value} is defined twice`);
          fragments!.set(definition.name.value, definition);
        }
      }
    }
  };
  // Beside this module in both layouts: lib/rest → rest-adapters (source), dist/lib/rest → dist/rest-adapters.
  walk(path.resolve(__dirname, '../../rest-adapters'));
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
        if (needed.has(name) || document.definitions.some((d) => d.kind === 'FragmentDefinition' && d.name.value === name)) return;
        const fragment = library.get(name);
        if (!fragment) throw new Error(`unknown fragment ${name}`);
        needed.set(name, fragment);
        collect(fragment);
      },
    });
  collect(document);
  return needed.size === 0 ? source : `${source.trimEnd()}\n\n${[...needed.values()].map((f) => print(f)).join('\n\n')}\n`;
}

export function loadOperation(routeDir: string, file = 'operation.graphql'): FixedOperationDocument {
  const document = withFragments(readFileSync(path.join(routeDir, file), 'utf8'));
  const operation = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (!operation?.name) throw new Error(`${routeDir}/${file}: needs one named operation`);
  return { name: operation.name.value, document };
}
