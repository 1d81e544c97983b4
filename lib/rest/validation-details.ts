import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ErrorDetail } from './error-body';

/**
 * What a 400 lists: every failing field of a request as an `ErrorDetail` (JSON pointer, rule, message, and for enums
 * the allowed values), from the shared validator's errors (docs/decisions/0006-error-body-mapping.md).
 */

/** At most this many details in one answer (the first ones in document order); `error` always names the first. */
export const MAX_ERROR_DETAILS = 50;

/**
 * Every error is collected (AJV `allErrors`) only for input of at most this many JSON values; larger input that fails
 * lists the problem the fail-fast pass found. AJV's collecting pass keeps one error object per failing value and
 * keyword, so a body at the sync push's 8 MiB limit (`[1,1,…]`, 4 million values) would hold 4 million errors: about
 * 680 ms and 780 MB of heap, measured. 10,000 values keep it under about 3 ms and 4 MB.
 */
export const MAX_COLLECTED_VALUES = 10_000;

/** Where each part of a request sits in a pointer: a body field is `/amount`, a query value `/query/limit`. */
const PART_PREFIX: Record<string, string> = { body: '', querystring: '/query', params: '/path', headers: '/header' };

/** The parts of a request in the order fastify validates them (it stops at the first part that fails). */
export const VALIDATED_PARTS = ['params', 'body', 'querystring', 'headers'] as const;
export type ValidatedPart = (typeof VALIDATED_PARTS)[number];

/**
 * A validator that fails fast (as cheap as before on every request) and, only when the input fails and is small
 * enough (MAX_COLLECTED_VALUES), runs the collecting validator for every problem (compiled then, once). fastify reads `errors` after a
 * `false` and passes the request as the root's parent when `schemaEnv` is set (so a root value can be coerced).
 */
export function failFastThenCollect(fast: ValidateFunction, compileCollecting: () => ValidateFunction): ValidateFunction {
  let collecting: ValidateFunction | undefined; // compiled at the first failure: most schemas never need it
  const validate = ((data: unknown, context?: never) => {
    if (fast(data, context)) {
      validate.errors = null;
      return true;
    }
    validate.errors = fast.errors;
    if (countValues(data, MAX_COLLECTED_VALUES) <= MAX_COLLECTED_VALUES) {
      collecting ??= compileCollecting();
      if (!collecting(data, context) && collecting.errors) validate.errors = collecting.errors;
    }
    return false;
  }) as ValidateFunction;
  Object.assign(validate, { schema: fast.schema, schemaEnv: fast.schemaEnv });
  return validate;
}

/** How many JSON values `data` holds, counting up to `limit + 1` at most (it stops there). */
export function countValues(data: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [data];
  while (stack.length > 0 && count <= limit) {
    const value = stack.pop();
    count += 1;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) stack.push(item);
    }
  }
  return count;
}

/** The details of one part's validation errors, in document order, combinators (enums, nullable fields) folded. */
export function detailsOf(part: string, errors: ErrorObject[]): ErrorDetail[] {
  const prefix = PART_PREFIX[part] ?? `/${part}`;
  return fold(errors).map((detail) => ({ ...detail, pointer: prefix + detail.pointer }));
}

/** The documented message of a 400 from its first detail: `invalid body (items.0.qty): must be >= 1`. */
export function validationMessage(part: string, first: ErrorDetail | undefined): string {
  if (!first) return `invalid ${part}: invalid`;
  const prefix = PART_PREFIX[part] ?? `/${part}`;
  const field = first.pointer
    .slice(prefix.length + 1)
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
  return `invalid ${part}${field ? ` (${field})` : ''}: ${first.message}`;
}

interface Ordered extends ErrorDetail {
  order: number;
}

function fold(errors: ErrorObject[]): ErrorDetail[] {
  const used = new Set<ErrorObject>();
  const out: Ordered[] = [];
  const combinators = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const combinator of combinators) {
    if (used.has(combinator)) continue;
    const branchErrors = errors.filter((e) => e !== combinator && !used.has(e) && insideBranch(e, combinator));
    used.add(combinator);
    for (const e of branchErrors) used.add(e);
    const order = Math.min(errors.indexOf(combinator), ...branchErrors.map((e) => errors.indexOf(e)));
    out.push(...combinatorDetails(combinator, branchErrors).map((detail, i) => ({ ...detail, order: order + i / 1000 })));
  }
  errors.forEach((e, order) => {
    if (!used.has(e)) out.push({ ...simpleDetail(e), order });
  });
  return out.sort((a, b) => a.order - b.order).map(({ order: _order, ...detail }) => detail);
}

function insideBranch(error: ErrorObject, combinator: ErrorObject): boolean {
  const within = error.instancePath === combinator.instancePath || error.instancePath.startsWith(`${combinator.instancePath}/`);
  return within && error.schemaPath.startsWith(`${combinator.schemaPath}/`);
}

/** One enum detail for a union of constants; the errors of the one branch the value could be; else one shape error. */
function combinatorDetails(combinator: ErrorObject, branchErrors: ErrorObject[]): ErrorDetail[] {
  const pointer = combinator.instancePath;
  const branches = Array.isArray(combinator.schema) ? (combinator.schema as unknown[]) : [];
  const allowed = enumValues({ anyOf: branches });
  if (allowed) return [enumDetail(pointer, allowed)];
  if (branchErrors.length === 0) return [simpleDetail(combinator)];
  const byBranch = new Map<number, ErrorObject[]>();
  for (const e of branchErrors) {
    const index = Number(e.schemaPath.slice(combinator.schemaPath.length + 1).split('/')[0]);
    byBranch.set(index, [...(byBranch.get(index) ?? []), e]);
  }
  // A branch whose only complaints are about the value itself (its type, or not one of its constants) is not what the
  // caller meant: a nullable object with a bad field reports that field, not "must be null".
  const live = branches
    .map((_, index) => index)
    .filter((index) => {
      const errs = byBranch.get(index) ?? [];
      return !errs.every((e) => e.instancePath === pointer && ['type', 'const', 'enum', 'anyOf', 'oneOf'].includes(e.keyword));
    });
  if (live.length === 1) return fold(byBranch.get(live[0]) ?? []);
  if (live.length === 0) {
    return [{ pointer, rule: 'type', message: `must be ${branches.map(describe).join(' or ')}` }];
  }
  return [{ pointer, rule: combinator.keyword, message: 'must match one of the allowed shapes' }];
}

function simpleDetail(e: ErrorObject): ErrorDetail {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
    return { pointer: `${e.instancePath}/${escape(params.missingProperty)}`, rule: 'required', message: e.message ?? 'is required' };
  }
  if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) return enumDetail(e.instancePath, params.allowedValues);
  if (e.keyword === 'const') return enumDetail(e.instancePath, [params.allowedValue]);
  return { pointer: e.instancePath, rule: e.keyword, message: e.message ?? 'is invalid' };
}

function enumDetail(pointer: string, allowed: unknown[]): ErrorDetail {
  const unique = [...new Set(allowed)];
  return { pointer, rule: 'enum', message: `must be one of: ${unique.map((v) => JSON.stringify(v)).join(', ')}`, allowed: unique };
}

/** The constants a schema allows when it is nothing but constants (a TypeBox union of literals, maybe nullable). */
function enumValues(schema: unknown): unknown[] | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return [s.const];
  if (Array.isArray(s.enum)) return s.enum as unknown[];
  if (s.type === 'null') return [null];
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (!Array.isArray(union) || union.length === 0) return undefined;
  const parts = union.map(enumValues);
  return parts.every((p) => p !== undefined) ? parts.flat() : undefined;
}

function describe(schema: unknown): string {
  const values = enumValues(schema);
  if (values) return values.map((v) => JSON.stringify(v)).join(' or ');
  const type = (schema as { type?: unknown } | null)?.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.join(' or ');
  return 'a value of another shape';
}

function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
