import type { TSchema } from '@sinclair/typebox';
import { type TimeRule, inTimeRule } from '../time/api-time';

/**
 * Where an answer's instants are, read from its response schema: the `date-time` strings (through $ref, unions and
 * nullable), the properties and array items that contain some. Null: none.
 */
type TimePlan = 'time' | { properties?: Map<string, TimePlan>; items?: TimePlan };

const plans = new WeakMap<object, TimePlan | null>();

/**
 * Every `date-time` field of an answer written by the API's time rule (lib/time/api-time.ts): the one place the REST
 * app renders instants (lib/rest/rest-app.ts calls it with the adapter's rule and the schema the body is
 * serialised with). Objects on the way to an instant are copied, not changed; everything else is left as it is.
 */
export function writeTimes(
  body: unknown,
  schema: TSchema | undefined,
  rule: TimeRule,
  resolve: (id: string) => TSchema | undefined,
): unknown {
  if (!schema || body === null || typeof body !== 'object') return body;
  const plan = planOf(schema, resolve);
  return plan ? apply(body, plan, rule) : body;
}

function apply(value: unknown, plan: TimePlan, rule: TimeRule): unknown {
  if (value === null || value === undefined) return value;
  if (plan === 'time') return inTimeRule(rule, value);
  if (Array.isArray(value)) return plan.items ? value.map((item) => apply(item, plan.items!, rule)) : value;
  if (typeof value !== 'object' || !plan.properties) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, inner] of plan.properties) if (key in copy) copy[key] = apply(copy[key], inner, rule);
  return copy;
}

function planOf(schema: TSchema, resolve: (id: string) => TSchema | undefined, seen = new Set<object>()): TimePlan | null {
  const known = plans.get(schema);
  if (known !== undefined) return known;
  if (seen.has(schema)) return null; // a recursive schema: its instants are planned where it starts
  seen.add(schema);
  const plan = build(schema as Record<string, unknown>, resolve, seen);
  seen.delete(schema);
  plans.set(schema, plan);
  return plan;
}

function build(s: Record<string, unknown>, resolve: (id: string) => TSchema | undefined, seen: Set<object>): TimePlan | null {
  if (typeof s.$ref === 'string') {
    const target = resolve(s.$ref.replace(/^#\/components\/schemas\//, '').replace(/#$/, ''));
    return target ? planOf(target, resolve, seen) : null;
  }
  let plan: TimePlan | null = null;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const variants = s[key] as TSchema[] | undefined;
    for (const variant of variants ?? []) plan = merge(plan, planOf(variant, resolve, seen));
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type];
  if (types.includes('string') && s.format === 'date-time') return 'time';
  if (types.includes('array') && s.items) {
    const items = planOf(s.items as TSchema, resolve, seen);
    if (items) plan = merge(plan, { items });
  }
  if (s.properties) {
    const properties = new Map<string, TimePlan>();
    for (const [key, property] of Object.entries(s.properties as Record<string, TSchema>)) {
      const inner = planOf(property, resolve, seen);
      if (inner) properties.set(key, inner);
    }
    if (properties.size) plan = merge(plan, { properties });
  }
  return plan;
}

function merge(a: TimePlan | null, b: TimePlan | null): TimePlan | null {
  if (!a || !b) return a ?? b;
  if (a === 'time' || b === 'time') return 'time';
  const properties = new Map(a.properties ?? []);
  for (const [key, inner] of b.properties ?? []) properties.set(key, merge(properties.get(key) ?? null, inner)!);
  const items = merge(a.items ?? null, b.items ?? null);
  return { ...(properties.size ? { properties } : {}), ...(items ? { items } : {}) };
}
