import type { MigrationObject } from '@mikro-orm/core';

/**
 * Expand/contract for rolling deploys (docs/decisions/0003-data-access.md): while a release rolls out, its copies and
 * the previous release's run side by side on one schema, which the new release's migration Job changed first. A
 * migration may therefore only add (tables, nullable or defaulted columns, indexes); dropping or renaming a table or a
 * column ("contract") is allowed only once no release in service reads it: the release before the one that drops it
 * stopped reading it. A migration that contracts declares so:
 *
 *   static readonly contract = { removes: ['webhook_attempts.response_excerpt'], unreadSince: '0.3.0' };
 *
 * naming each table (`table`) or column (`table.column`) it drops or renames, and the release whose code stopped
 * reading them (an earlier one than the release that ships the migration).
 */
export interface ContractDeclaration {
  removes: string[];
  unreadSince: string;
}

/** A table or column an `up` statement drops or renames: `table` or `table.column`, without the schema. */
export interface Removal {
  object: string;
  statement: string;
}

/** Migrations up to this timestamp predate the rule (they shipped together before any rolling deploy); later ones are checked. */
export const EXPAND_CONTRACT_SINCE = '20261210100000';

const bare = (name: string) => name.replaceAll('"', '').split('.').pop()!;

/** The tables and columns `sql` drops or renames. */
export function removalsOf(sql: string): Removal[] {
  const removals: Removal[] = [];
  const text = sql.replace(/--[^\n]*/g, ' ');
  for (const statement of text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const drop = /^drop\s+table\s+(?:if\s+exists\s+)?(.+?)(?:\s+cascade|\s+restrict)?$/is.exec(statement);
    if (drop) for (const table of drop[1].split(',')) removals.push({ object: bare(table.trim()), statement });
    const alter = /^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?(\S+)\s+(.*)$/is.exec(statement);
    if (!alter) continue;
    const table = bare(alter[1]);
    const actions = alter[2];
    for (const m of actions.matchAll(/drop\s+column\s+(?:if\s+exists\s+)?("?[\w]+"?)/gi))
      removals.push({ object: `${table}.${bare(m[1])}`, statement });
    for (const m of actions.matchAll(/rename\s+column\s+("?[\w]+"?)\s+to/gi))
      removals.push({ object: `${table}.${bare(m[1])}`, statement });
    if (/^rename\s+to\s/i.test(actions.trim())) removals.push({ object: table, statement });
  }
  return removals;
}

/** The statements `migration.up()` would send, without a database. */
export async function upStatements(migration: MigrationObject): Promise<string[]> {
  const Class = migration.class as unknown as new (
    driver: unknown,
    config: unknown,
  ) => { up(): Promise<void> | void; getQueries(): unknown[] };
  const instance = new Class(undefined, undefined);
  await instance.up();
  return instance.getQueries().map(String);
}

/**
 * What is wrong with `migration` under expand/contract: each removal it does not declare, a declaration whose release
 * is this one (`currentRelease`), and each declared object that `stillRead` says the current code reads.
 */
export async function contractProblems(
  migration: MigrationObject,
  currentRelease: string,
  stillRead: (object: string) => boolean,
): Promise<string[]> {
  const stamp = /(\d{14})/.exec(migration.name)?.[1] ?? '';
  if (stamp <= EXPAND_CONTRACT_SINCE) return [];
  const removals = (await upStatements(migration)).flatMap(removalsOf);
  if (removals.length === 0) return [];
  const declared = (migration.class as unknown as { contract?: ContractDeclaration }).contract;
  const problems: string[] = [];
  for (const { object, statement } of removals) {
    if (!declared?.removes.includes(object))
      problems.push(
        `${migration.name} drops or renames ${object} (${statement.slice(0, 80)}): the previous release may still read it; expand now, contract in a later release with \`static readonly contract\``,
      );
  }
  if (declared && declared.unreadSince === currentRelease)
    problems.push(
      `${migration.name}: declares ${declared.removes.join(', ')} unread since ${currentRelease}, the release that ships it: the previous release still reads them`,
    );
  for (const object of declared?.removes ?? [])
    if (stillRead(object)) problems.push(`${migration.name}: removes ${object}, which the code still reads`);
  return problems;
}
