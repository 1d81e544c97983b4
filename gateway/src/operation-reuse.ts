import * as operations from '@apollo/federation-internals/dist/operations';

type Build = typeof operations.operationFromDocument;
type Operation = ReturnType<Build>;
type SchemaArg = Parameters<Build>[0];
type DocumentArg = Parameters<Build>[1];

/** Operations built by executeQueryPlan, per API schema and per parsed operation (the document cache's node). */
const built = new WeakMap<SchemaArg, WeakMap<DocumentArg['definitions'][number], Operation>>();
const counts = { built: 0, reused: 0 };
let installed = false;

/**
 * `@apollo/gateway` 2.14's `executeQueryPlan` rebuilds the federation `Operation` of the request from its parsed
 * document on every request (`operationFromDocument(apiSchema, { definitions: [operation, ...fragments] },
 * { validate: false })`), only to shape the subgraphs' answers; the query plan itself is cached. The parsed document
 * is Apollo Server's cached one, so the same operation node comes back for every request of a fixed operation, and
 * the `Operation` built from it depends on nothing else (variables are applied while shaping, not here). This keeps
 * the first one per operation node and API schema (decision 0009): about a fifth of the REST process's own time on a
 * lone lookup.
 *
 * Only that call is served from here (`validate: false`, no operation name); the planner's calls and any other go to
 * the library's function. The library exposes no hook for it: `gateway/src/executor.spec.ts` fails if an
 * upgrade of `@apollo/gateway` stops calling through this export, so the dependency is pinned with it.
 */
export function reuseBuiltOperations(): void {
  if (installed) return;
  installed = true;
  const library = operations as { operationFromDocument: Build };
  const build = library.operationFromDocument;
  library.operationFromDocument = (schema, document, options) => {
    const node = document.definitions[0];
    if (options?.validate !== false || options.operationName !== undefined || !node) return build(schema, document, options);
    let bySchema = built.get(schema);
    if (!bySchema) built.set(schema, (bySchema = new WeakMap()));
    const known = bySchema.get(node);
    if (known) {
      counts.reused += 1;
      return known;
    }
    const operation = build(schema, document, options);
    bySchema.set(node, operation);
    counts.built += 1;
    return operation;
  };
}

/** How many operations were built and how many reused since the process started (tests). */
export function operationReuseCounts(): Readonly<typeof counts> {
  return { ...counts };
}
