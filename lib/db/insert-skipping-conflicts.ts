import type { Knex } from '@mikro-orm/postgresql';
import { rowsOf } from './plain-rows';

/**
 * One multi-row insert that skips the rows whose `conflictKey` is taken, in array order; the ids inserted. All
 * rows travel as ONE parameter (a JSON array read by `jsonb_populate_recordset`), not one bound value per column
 * and row: building and binding hundreds of values cost more than the insert itself. Values must be JSON-ready
 * as the column expects them (a jsonb column takes the object itself; dates become ISO strings). `conflictKey` null: no
 * conflict clause (the rows are known to be free, or a conflict is an error). `returning`: the column whose values come back.
 */
export async function insertSkippingConflicts(
  db: Knex,
  table: string,
  rows: readonly Record<string, unknown>[],
  conflictKey: readonly string[] | null,
  returning = 'id',
): Promise<string[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0])
    .map((column) => `"${column}"`)
    .join(', ');
  const inserted = await rowsOf<Record<string, string>>(
    db,
    `insert into ${table} (${columns})
     select ${columns} from jsonb_populate_recordset(null::${table}, ?::jsonb) with ordinality as r order by r.ordinality
     ${conflictKey ? `on conflict (${conflictKey.join(', ')}) do nothing` : ''} returning "${returning}"`,
    [JSON.stringify(rows)],
  );
  return inserted.map((row) => row[returning]);
}
