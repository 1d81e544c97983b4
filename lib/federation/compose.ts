import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { type GraphQLSchema, type OperationDefinitionNode, parse, validate, Kind } from 'graphql';
import YAML from 'yaml';
import { projectRoot } from '../config/project-root';
import { FRAGMENT_SUFFIX, withFragments } from '../rest/operation';
import type { SubgraphDefinition } from './subgraph-definition';

export const ROOT = projectRoot();
export const SUPERGRAPH_FILE = path.join(ROOT, 'gateway', 'supergraph.graphql');
export const OPERATIONS_FILE = path.join(ROOT, 'gateway', 'operations.json');
/** The app's operations (one named operation per file); the gateway's trusted-document list is built from them. */
export const APP_OPERATIONS_DIR = path.join(ROOT, 'gateway', 'app-operations');
export const TRUSTED_DOCUMENTS_FILE = path.join(ROOT, 'gateway', 'trusted-documents.json');

interface SupergraphYaml {
  federation_version: string;
  subgraphs: Record<string, { routing_url: string; schema: { file: string } }>;
}

export function readSupergraphYaml(): SupergraphYaml {
  return YAML.parse(readFileSync(path.join(ROOT, 'supergraph.yaml'), 'utf8')) as SupergraphYaml;
}

export interface Composition {
  subgraphs: { name: string; file: string; sdl: string }[];
  supergraphSdl: string;
  apiSchema: GraphQLSchema;
}

/** Prints each subgraph's SDL and composes the supergraph, exactly as `rover supergraph compose` would. */
export async function composeSupergraph(definitions: SubgraphDefinition[]): Promise<Composition> {
  const yaml = readSupergraphYaml();
  const subgraphs = await Promise.all(
    Object.entries(yaml.subgraphs).map(async ([name, entry]) => {
      const definition = definitions.find((d) => d.name === name);
      if (!definition) throw new Error(`supergraph.yaml names ${name}, which is not a known subgraph`);
      const sdl = printSubgraphSchema(await definition.buildSchema()) + '\n';
      return { name, url: entry.routing_url, file: path.join(ROOT, entry.schema.file), sdl };
    }),
  );
  const result = composeServices(subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) })));
  if (result.errors) {
    throw new Error(`composition failed:\n${result.errors.map((e) => `  - ${e.message}`).join('\n')}`);
  }
  return {
    subgraphs: subgraphs.map(({ name, file, sdl }) => ({ name, file, sdl })),
    supergraphSdl: result.supergraphSdl,
    apiSchema: result.schema.toAPISchema().toGraphQLJSSchema(),
  };
}

export interface FixedOperation {
  name: string;
  file: string;
  document: string;
  sha256: string;
}

/** Every fixed operation document of the REST adapters (one per route folder). */
export function collectOperations(root = path.join(ROOT, 'rest-adapters')): FixedOperation[] {
  const found: FixedOperation[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (entry === 'node_modules') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith('.graphql') && !entry.endsWith(FRAGMENT_SUFFIX)) {
        const document = withFragments(readFileSync(full, 'utf8'));
        const operation = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
        if (!operation?.name) throw new Error(`${full}: an operation document needs one named operation`);
        found.push({
          name: operation.name.value,
          file: path.relative(ROOT, full),
          document,
          sha256: createHash('sha256').update(document).digest('hex'),
        });
      }
    }
  };
  walk(root);
  return found;
}

/** Validation errors of each operation against the composed API schema (empty when all are valid). */
export function validateOperations(apiSchema: GraphQLSchema, operations: FixedOperation[]): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const operation of operations) {
    if (names.has(operation.name)) problems.push(`${operation.file}: operation name ${operation.name} is used twice`);
    names.add(operation.name);
    for (const error of validate(apiSchema, parse(operation.document))) problems.push(`${operation.file}: ${error.message}`);
  }
  return problems;
}

/** The manifest the gateway warms its query-plan cache from (and, later, its trusted-document list). */
export function operationsManifest(operations: FixedOperation[]): string {
  return (
    JSON.stringify({ operations: operations.map(({ name, file, sha256, document }) => ({ name, file, sha256, document })) }, null, 2) + '\n'
  );
}

/** The trusted-document list (docs/graphql.md "Trusted documents"): id = sha256 of the document text, as sent. */
export function trustedDocumentsManifest(operations: FixedOperation[]): string {
  return (
    JSON.stringify({ documents: operations.map(({ name, file, sha256, document }) => ({ id: sha256, name, file, document })) }, null, 2) +
    '\n'
  );
}
