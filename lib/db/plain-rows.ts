import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/**
 * Plain rows: hand-written SQL whose rows go straight to a wire mapper, without hydrating entities (the hot read
 * paths, and every set-based write). Repositories (`lib/db/repository.ts`) are the only callers.
 */

/** Knex of the EntityManager's open transaction (inside `em.transactional`), else of its connection. */
export function knexOf(em: EntityManager): Knex {
  return em.getTransactionContext<Knex.Transaction>() ?? em.getKnex();
}

/**
 * The key of knex's config (set by createOrm from DB_PREPARED_STATEMENTS) that says whether `preparedAs` names its
 * statement: false behind a pooler in transaction mode that cannot keep a statement across transactions.
 */
export const NAMED_STATEMENTS = 'qrisNamedStatements';

/**
 * Rows of one hand-written statement (`?` placeholders, bound by the driver). With `preparedAs`, a named prepared
 * statement: each connection plans it once, not at every call (for a hot statement whose planning costs more than
 * its execution; the name must always go with the same text), unless the pool's config says statements stay unnamed.
 */
export async function rowsOf<T = Record<string, unknown>>(
  db: Knex,
  text: string,
  params: readonly unknown[] = [],
  preparedAs?: string,
): Promise<T[]> {
  const raw = db.raw(text, params as Knex.RawBinding[]);
  const named = preparedAs && (db.client.config as Record<string, unknown>)[NAMED_STATEMENTS] !== false;
  return (await (named ? raw.options({ name: preparedAs }) : raw)).rows as T[];
}

/**
 * SQL that selects an entity's columns under the entity's property names (`m.merchant_code as "merchantCode"`), so
 * a wire mapper written for the entity can take the row as it is. The ORM's connection returns timestamptz as
 * text; `withDates` turns them back.
 */
export function columnsAs(alias: string, properties: readonly string[]): string {
  return properties.map((property) => `${alias}.${columnOf(property)} as "${property}"`).join(', ');
}

/** SQL that builds one JSON object of an entity's columns under its property names (rows nested in a row). */
export function jsonObjectOf(alias: string, properties: readonly string[]): string {
  return `jsonb_build_object(${properties.map((property) => `'${property}', ${alias}.${columnOf(property)}`).join(', ')})`;
}

function columnOf(property: string): string {
  return property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The row with these timestamp properties as Dates (null stays null). */
export function withDates<T extends Record<string, unknown>>(row: T, properties: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const property of properties) {
    const value = row[property];
    out[property] = value == null ? null : new Date(value as string);
  }
  return out as T;
}
