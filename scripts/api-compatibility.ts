import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { buildSchema, findBreakingChanges, parse, print, printSchema, visit } from 'graphql';
import { projectRoot } from '@lib/config/project-root';

/**
 * The compatibility promise of the REST APIs and the GraphQL schema (docs/api/versioning.md,
 * docs/decisions/0200-api-reference.md): the current OpenAPI document and the supergraph's API schema
 * against the last release's snapshot (docs/api/releases/<version>/), breaking changes named by a stable id, and the
 * ids CHANGELOG.md's Unreleased section announces.
 */

type Json = Record<string, any>;

/** One node of a REST contract: its JSON types, whether it is always there (responses) or must be sent (requests), its values. */
export interface ContractNode {
  type: string;
  required: boolean;
  enum?: unknown[];
}

/** The REST contract, flat: `GET /path` per operation, `GET /path query/limit`, `POST /path body/items/*\/qty`, `GET /path response 200/id`. */
export interface RestSignature {
  format: 1;
  operations: string[];
  nodes: Record<string, ContractNode>;
}

export interface BreakingChange {
  /** Stable and unique: what CHANGELOG.md's Unreleased "Breaking" list must name, e.g. `REST FIELD_REMOVED GET /a response 200/b`. */
  id: string;
  detail?: string;
}

export const RELEASES_DIR = 'docs/api/releases';
export const REST_SNAPSHOT = 'rest-signature.json';
export const GRAPHQL_SNAPSHOT = 'schema.graphql';
export const CHANGELOG = 'CHANGELOG.md';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** The signature of an OpenAPI document: what a client depends on, without prose or examples. */
export function restSignature(document: Json): RestSignature {
  const schemas: Json = document.components?.schemas ?? {};
  const nodes: Record<string, ContractNode> = {};
  const operations: string[] = [];
  for (const [url, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (!METHODS.includes(method)) continue;
      const op = `${method.toUpperCase()} ${url}`;
      operations.push(op);
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        const where = parameter.in === 'path' ? 'path' : parameter.in;
        walk(
          schemas,
          parameter.schema ?? {},
          `${op} ${where}/${escape(String(parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name))}`,
          parameter.required === true,
          nodes,
          new Set(),
        );
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) walk(schemas, body, `${op} body`, operation.requestBody.required === true, nodes, new Set());
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
        const schema = response.content?.['application/json']?.schema;
        if (Number(status) >= 400 && isErrorBody(schema)) continue; // the shared error body is versioned as a whole, below
        if (schema) walk(schemas, schema, `${op} response ${status}`, true, nodes, new Set());
        else if (Number(status) < 400) nodes[`${op} response ${status}`] = { type: 'none', required: true };
      }
    }
  }
  if (schemas.ErrorBody) walk(schemas, schemas.ErrorBody, 'ErrorBody', true, nodes, new Set());
  return {
    format: 1,
    operations: operations.sort(),
    nodes: Object.fromEntries(Object.entries(nodes).sort(([a], [b]) => a.localeCompare(b))),
  };
}

function isErrorBody(schema: Json | undefined): boolean {
  const refs = [schema?.$ref, ...((schema?.allOf ?? []) as Json[]).map((part) => part.$ref)];
  return refs.includes('#/components/schemas/ErrorBody');
}

interface Flat {
  types: Set<string>;
  enum?: unknown[];
  properties: Map<string, Json[]>;
  required: Set<string>;
  items: Json[];
}

function flatten(schemas: Json, schema: Json, seen: Set<string>): Flat {
  const flat: Flat = { types: new Set(), properties: new Map(), required: new Set(), items: [] };
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (seen.has(name)) return { ...flat, types: new Set(['recursive']) };
    return flatten(schemas, schemas[name] ?? {}, new Set([...seen, name]));
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf.map((p: Json) => flatten(schemas, p, seen))) merge(flat, part, 'all');
  }
  const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(union)) {
    const branches = union.map((b) => flatten(schemas, b, seen));
    const unionFlat: Flat = { types: new Set(), properties: new Map(), required: new Set(), items: [] };
    const enumLike = branches.every((b) => b.enum !== undefined);
    branches.forEach((branch, i) => merge(unionFlat, branch, i === 0 ? 'all' : 'some'));
    if (enumLike) unionFlat.enum = branches.flatMap((b) => b.enum ?? []);
    else delete unionFlat.enum;
    merge(flat, unionFlat, 'all');
    if (enumLike) flat.enum = unionFlat.enum;
  }
  if ('const' in schema) {
    flat.enum = [schema.const];
    flat.types.add(schema.const === null ? 'null' : typeof schema.const === 'number' ? 'number' : typeof schema.const);
  }
  if (Array.isArray(schema.enum)) flat.enum = [...schema.enum];
  if (typeof schema.type === 'string') flat.types.add(schema.type);
  if (Array.isArray(schema.type)) for (const t of schema.type) flat.types.add(t);
  for (const [name, inner] of Object.entries<Json>(schema.properties ?? {}))
    flat.properties.set(name, [...(flat.properties.get(name) ?? []), inner]);
  for (const name of (schema.required ?? []) as string[]) flat.required.add(name);
  if (schema.items && typeof schema.items === 'object') flat.items.push(schema.items);
  return flat;
}

/** `all`: parts that all hold (allOf): required adds up. `some`: alternatives (anyOf): required only when every branch requires it. */
function merge(into: Flat, part: Flat, mode: 'all' | 'some'): void {
  for (const t of part.types) into.types.add(t);
  if (part.enum) into.enum = [...(into.enum ?? []), ...part.enum];
  for (const [name, list] of part.properties) into.properties.set(name, [...(into.properties.get(name) ?? []), ...list]);
  if (mode === 'all') for (const name of part.required) into.required.add(name);
  else for (const name of [...into.required]) if (!part.required.has(name)) into.required.delete(name);
  into.items.push(...part.items);
}

function walk(schemas: Json, schema: Json, key: string, required: boolean, out: Record<string, ContractNode>, seen: Set<string>): void {
  const flat = flatten(schemas, schema, seen);
  const types = [...flat.types].sort();
  const node: ContractNode = { type: types.length > 0 ? types.join('|') : 'any', required };
  if (flat.enum) node.enum = [...new Set(flat.enum.map((v) => JSON.stringify(v)))].sort().map((v) => JSON.parse(v) as unknown);
  out[key] = node;
  if (types.includes('recursive')) return;
  for (const [name, list] of flat.properties) {
    walk(schemas, list.length === 1 ? list[0] : { anyOf: list }, `${key}/${escape(name)}`, flat.required.has(name), out, seen);
  }
  if (flat.items.length > 0) walk(schemas, flat.items.length === 1 ? flat.items[0] : { anyOf: flat.items }, `${key}/*`, true, out, seen);
}

function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

const isResponse = (key: string) => / response \d+(\/|$)/.test(key) || key.startsWith('ErrorBody');
const accepts = (types: string, type: string) =>
  types === 'any' || types.split('|').includes(type) || (type === 'integer' && types.split('|').includes('number'));

/** The node a node sits in (undefined for a top-level one: a parameter, a body, a response), given its operation. */
function parentOf(key: string, operations: string[]): string | undefined {
  const op = operations.find((o) => key.startsWith(`${o} `));
  const rest = op ? key.slice(op.length + 1) : key;
  const slash = rest.lastIndexOf('/');
  if (slash < 0 || ['query', 'path', 'header'].includes(rest.slice(0, slash))) return undefined;
  return `${op ? `${op} ` : ''}${rest.slice(0, slash)}`;
}

/** Breaking changes from `before` to `after`: what a client written against `before` can no longer rely on. */
export function restBreakingChanges(before: RestSignature, after: RestSignature): BreakingChange[] {
  const changes: BreakingChange[] = [];
  const kept = new Set(after.operations);
  const removed = before.operations.filter((op) => !kept.has(op));
  for (const op of removed) changes.push({ id: `REST OPERATION_REMOVED ${op}` });
  for (const [key, old] of Object.entries(before.nodes)) {
    if (removed.some((op) => key.startsWith(`${op} `))) continue;
    const now = after.nodes[key];
    const response = isResponse(key);
    if (!now) {
      // A node inside a removed node is named by that node only.
      const parent = parentOf(key, before.operations);
      if (parent && before.nodes[parent] && !after.nodes[parent]) continue;
      changes.push({ id: `REST ${response ? 'FIELD_REMOVED' : 'REQUEST_FIELD_REMOVED'} ${key}` });
      continue;
    }
    if (response && old.required && !now.required) changes.push({ id: `REST FIELD_BECAME_OPTIONAL ${key}` });
    if (!response && !old.required && now.required) changes.push({ id: `REST FIELD_BECAME_REQUIRED ${key}` });
    // A request must accept every type it accepted; a response must not answer a type it never did.
    const [wider, narrower] = response ? [old.type, now.type] : [now.type, old.type];
    if (wider !== 'any' && narrower.split('|').some((t) => !accepts(wider, t))) {
      changes.push({ id: `REST TYPE_CHANGED ${key}`, detail: `${old.type} → ${now.type}` });
    }
    if (old.enum && now.enum) {
      const values = new Set(now.enum.map((v) => JSON.stringify(v)));
      for (const value of old.enum) {
        if (!values.has(JSON.stringify(value))) changes.push({ id: `REST ENUM_VALUE_REMOVED ${key} ${JSON.stringify(value)}` });
      }
    } else if (!old.enum && now.enum && !response) {
      changes.push({ id: `REST VALUES_RESTRICTED ${key}`, detail: `now one of ${now.enum.map((v) => JSON.stringify(v)).join(', ')}` });
    }
  }
  for (const [key, now] of Object.entries(after.nodes)) {
    if (before.nodes[key] || isResponse(key) || !now.required) continue;
    const operation = after.operations.find((op) => key.startsWith(`${op} `));
    if (!operation || !before.operations.includes(operation)) continue; // a new operation breaks no one
    // A new required field inside a new optional object is not required of a client that does not send the object.
    const parent = parentOf(key, after.operations);
    if (parent && !before.nodes[parent]) continue;
    changes.push({ id: `REST REQUIRED_FIELD_ADDED ${key}` });
  }
  return changes;
}

/**
 * The signature as the snapshot file holds it: one line per operation and node, each node as `type`, `!` when required,
 * then its values as a JSON array (`"GET /a response 200/status": "string! [\"active\",\"suspended\"]"`).
 */
export function serializeSignature(signature: RestSignature): string {
  const node = (n: ContractNode) => `${n.type}${n.required ? '!' : ''}${n.enum ? ` ${JSON.stringify(n.enum)}` : ''}`;
  const lines = [
    '{',
    `  "format": ${signature.format},`,
    '  "operations": [',
    signature.operations.map((op) => `    ${JSON.stringify(op)}`).join(',\n'),
    '  ],',
    '  "nodes": {',
    Object.entries(signature.nodes)
      .map(([key, n]) => `    ${JSON.stringify(key)}: ${JSON.stringify(node(n))}`)
      .join(',\n'),
    '  }',
    '}',
  ];
  return lines.join('\n') + '\n';
}

export function parseSignature(text: string): RestSignature {
  const raw = JSON.parse(text) as { format: number; operations: string[]; nodes: Record<string, string> };
  if (raw.format !== 1) throw new Error(`unknown signature format ${raw.format}`);
  const nodes: Record<string, ContractNode> = {};
  for (const [key, value] of Object.entries(raw.nodes)) {
    const match = /^(\S+?)(!?)(?: (\[.*\]))?$/.exec(value);
    if (!match) throw new Error(`unreadable node ${key}: ${value}`);
    nodes[key] = { type: match[1], required: match[2] === '!', ...(match[3] ? { enum: JSON.parse(match[3]) as unknown[] } : {}) };
  }
  return { format: 1, operations: raw.operations, nodes };
}

/** Breaking changes between two GraphQL schemas (graphql-js findBreakingChanges), e.g. `GraphQL FIELD_REMOVED Query.x was removed.` */
export function graphqlBreakingChanges(beforeSdl: string, afterSdl: string): BreakingChange[] {
  return findBreakingChanges(buildSchema(beforeSdl), buildSchema(afterSdl)).map((change) => ({
    id: `GraphQL ${change.type} ${change.description}`,
  }));
}

/** The API schema of a supergraph (what clients may select), as SDL without descriptions (they break no client). */
export function apiSchemaSdl(supergraphSdl: string): string {
  const sdl = printSchema(Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema());
  const withoutDescriptions = visit(parse(sdl), {
    enter(node) {
      return 'description' in node && node.description ? { ...node, description: undefined } : undefined;
    },
  });
  return print(withoutDescriptions) + '\n';
}

export function currentApiSchemaSdl(root = projectRoot()): string {
  return apiSchemaSdl(readFileSync(path.join(root, 'gateway', 'supergraph.graphql'), 'utf8'));
}

/**
 * The breaking changes CHANGELOG.md announces: under `## [Unreleased]`, the `### Breaking` list, each item starting
 * with the change's id in backticks: ``- `REST FIELD_REMOVED GET /a response 200/b` — why, and what to use instead.``
 */
export function announcedBreakingChanges(changelog: string): Set<string> {
  const unreleased = section(changelog, /^## \[Unreleased\]\s*$/m, /^## /m);
  const breaking = unreleased === undefined ? undefined : section(unreleased, /^### Breaking\s*$/m, /^##+ /m);
  const ids = [...(breaking ?? '').matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]);
  return new Set(ids);
}

function section(text: string, start: RegExp, end: RegExp): string | undefined {
  const found = start.exec(text);
  if (!found) return undefined;
  const rest = text.slice(found.index + found[0].length);
  const next = end.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

/** The releases in CHANGELOG.md, newest first: `## [1.0.0] - 2026-11-29`. */
export function changelogReleases(changelog: string): { version: string; date: string }[] {
  return [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})\s*$/gm)].map((m) => ({ version: m[1], date: m[2] }));
}

/** The newest release snapshot under docs/api/releases/ (highest version). */
export function latestRelease(root = projectRoot()): { version: string; dir: string } | undefined {
  const base = path.join(root, RELEASES_DIR);
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((name) => /^\d+\.\d+\.\d+$/.test(name))
    .sort((a, b) => compareVersions(b, a));
  return versions[0] ? { version: versions[0], dir: path.join(base, versions[0]) } : undefined;
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** Every breaking change since the release snapshot in `dir`, and those of them CHANGELOG.md does not announce. */
export function compareWithRelease(
  dir: string,
  current: { rest: RestSignature; graphqlSdl: string },
  changelog: string,
): { breaking: BreakingChange[]; unannounced: BreakingChange[] } {
  const rest = parseSignature(readFileSync(path.join(dir, REST_SNAPSHOT), 'utf8'));
  const graphql = readFileSync(path.join(dir, GRAPHQL_SNAPSHOT), 'utf8');
  const breaking = [...restBreakingChanges(rest, current.rest), ...graphqlBreakingChanges(graphql, current.graphqlSdl)];
  const announced = announcedBreakingChanges(changelog);
  return { breaking, unannounced: breaking.filter((change) => !announced.has(change.id)) };
}
