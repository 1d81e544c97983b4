import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type OperationDefinitionNode, parse } from 'graphql';

/** A fixed GraphQL operation, read once from the route folder's operation.graphql. */
export interface FixedOperationDocument {
  name: string;
  document: string;
}

export function loadOperation(routeDir: string, file = 'operation.graphql'): FixedOperationDocument {
  const document = readFileSync(path.join(routeDir, file), 'utf8');
  const operation = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (!operation?.name) throw new Error(`${routeDir}/${file}: needs one named operation`);
  return { name: operation.name.value, document };
}
