import type { Knex } from '@mikro-orm/postgresql';
import { insertSkippingConflicts } from '@lib/db/insert-skipping-conflicts';
import { rowsOf } from '@lib/db/plain-rows';

/** A transaction as written, column by column (snake_case; at least id, bank_code, transaction_code, transaction_at). */
export type NewTransactionRow = Record<string, unknown>;

const CODE_KEY = ['bank_code', 'transaction_code'];

/**
 * Records the transactions whose (bank, transaction_code) is free, in array order; the ids recorded. A bank's
 * transaction_code is unique over all time (psp-api.md: `duplicate_transaction_code`), which the partitioned
 * `transactions` table cannot enforce itself (docs/decisions/0208-partitioned-history.md): the codes are claimed first
 * in the narrow `transaction_codes` table (`insert … on conflict do nothing`: of concurrent claims of one code one
 * wins, the others wait for its commit and skip, as the former unique constraint decided), then only the claimed rows
 * are inserted (the table's guard trigger finds their codes claimed by them). Rows without a bank (demo data) have no
 * code to claim and are skipped when their id is already stored (seeds run again).
 */
export async function insertTransactionsClaimingCodes(db: Knex, rows: readonly NewTransactionRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const banked = rows.filter((row) => row.bank_code != null);
  const claimed = new Set(
    await insertSkippingConflicts(
      db,
      '"transaction".transaction_codes',
      banked.map((row) => ({
        bank_code: row.bank_code,
        transaction_code: row.transaction_code,
        transaction_id: row.id,
        transaction_at: row.transaction_at,
      })),
      CODE_KEY,
      'transaction_id',
    ),
  );
  const unbanked = rows.filter((row) => row.bank_code == null);
  const stored =
    unbanked.length === 0
      ? new Set<string>()
      : new Set(
          (
            await rowsOf<{ id: string }>(db, 'select id from "transaction".transactions where id = any(?::uuid[])', [
              unbanked.map((row) => row.id),
            ])
          ).map((row) => row.id),
        );
  const free = rows.filter((row) => (row.bank_code != null ? claimed.has(row.id as string) : !stored.has(row.id as string)));
  return insertSkippingConflicts(db, '"transaction".transactions', free, null);
}
