import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/** Knex of the EntityManager's open transaction (inside `em.transactional`), else of its connection. */
export function knexOf(em: EntityManager): Knex {
  return em.getTransactionContext<Knex.Transaction>() ?? em.getKnex();
}

/** Rows of one hand-written statement (`?` placeholders). */
export async function rowsOf<T = Record<string, unknown>>(db: Knex, text: string, params: readonly unknown[] = []): Promise<T[]> {
  return (await db.raw(text, params as Knex.RawBinding[])).rows as T[];
}
