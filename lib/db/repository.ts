import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { knexOf, rowsOf } from './plain-rows';

/** A repository class: built on the request's EntityManager (and, inside `sqlTransaction`, its knex transaction). */
export type RepositoryClass<R extends Repository> = new (em: EntityManager, trx?: Knex.Transaction) => R;

/**
 * The base of every aggregate's repository (`subgraphs/<name>/src/modules/<aggregate>/<aggregate>.repository.ts`).
 * A repository is the only code of a subgraph that talks to the database: it owns the aggregate's SQL, its
 * ORM calls and its row types, and returns entities (to be changed and flushed), plain rows or numbers. Services
 * build one from the request's EntityManager and never use the EntityManager themselves.
 *
 * Three ways to the database, each for what it is best at (docs/decisions/0003-data-access.md):
 * - the ORM's unit of work (`em.find`, `em.create`, `flush`), to load the entities a write changes and write
 *   them, several entities of several tables in one transaction (`transactional`);
 * - plain rows (`rows`, or knex's builder on `db`), for reads that go straight to the wire (the hot paths) and
 *   set-based writes (`lib/db/insert-skipping-conflicts.ts`, `lib/db/sync-pull.ts`); `preparedRows` where planning
 *   a hot statement costs more than running it;
 * - `execute`, the ORM connection's own raw query (parameters inlined by the ORM, its exception classes), where
 *   a statement has always used it.
 */
export abstract class Repository {
  constructor(
    protected readonly em: EntityManager,
    /** The knex transaction this repository is bound to (inside `sqlTransaction`), if any. */
    private readonly trx?: Knex.Transaction,
  ) {}

  /** Knex of the open transaction (knex's, else the EntityManager's), else of the connection. */
  protected get db(): Knex {
    return this.trx ?? knexOf(this.em);
  }

  /** Rows of one hand-written statement (`?` placeholders, bound by the driver), in the open transaction if any. */
  protected rows<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return rowsOf<T>(this.db, sql, params);
  }

  /** `rows` as a named prepared statement, planned once per connection (lib/db/plain-rows.ts). */
  protected preparedRows<T = Record<string, unknown>>(name: string, sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return rowsOf<T>(this.db, sql, params, name);
  }

  /**
   * Rows of one statement through the ORM's connection (`?` placeholders inlined by the ORM; its exception classes,
   * e.g. UniqueConstraintViolationException). It runs outside any transaction: inside one, use `rows`.
   */
  protected execute<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.em.getConnection().execute<Record<string, unknown>[]>(sql, params as unknown[]) as Promise<T[]>;
  }

  /** Writes the unit of work's changes (nothing when nothing changed). */
  async flush(): Promise<void> {
    await this.em.flush();
  }

  /**
   * Runs `work` in one ORM transaction (a forked unit of work, flushed at commit): `tx` is this repository bound to
   * it, and `tx.peer(…)` gives other aggregates' repositories in the same transaction.
   */
  transactional<T>(work: (tx: this) => Promise<T>): Promise<T> {
    return this.em.transactional((em) => work(this.rebound(em)));
  }

  /**
   * Runs `work` in one plain SQL transaction (knex's, without a unit of work): `tx` is this repository bound to it.
   * Only its `rows` and `db` run in the transaction; ORM calls on `tx` would not. Called on a repository bound to
   * one already, it runs `work` in a savepoint of it (rolled back alone when `work` throws).
   */
  sqlTransaction<T>(work: (tx: this) => Promise<T>): Promise<T> {
    return (this.trx ?? this.em.getKnex()).transaction((trx) => work(this.rebound(this.em, trx)));
  }

  /** Another aggregate's repository on the same EntityManager and transaction (one unit of work, one commit). */
  peer<R extends Repository>(Type: RepositoryClass<R>): R {
    return new Type(this.em, this.trx);
  }

  private rebound(em: EntityManager, trx?: Knex.Transaction): this {
    return new (this.constructor as RepositoryClass<this>)(em, trx);
  }
}
