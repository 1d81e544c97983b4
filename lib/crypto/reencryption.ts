import type { Knex } from '@mikro-orm/postgresql';
import type { SubgraphName } from '../config/config';
import type { SecretBox } from './secret-box';

/** A column holding SecretBox-sealed values: its subgraph (whose role may write it), table, column and row key. */
export interface SealedColumn {
  subgraph: SubgraphName;
  table: string;
  column: string;
  key: string;
}

/**
 * Every sealed column of the platform: the merchant subgraph's bank keys, webhook secrets and HMAC partner secrets,
 * the outlet subgraph's settlement account numbers (docs/decisions/0238-settlement-accounts.md).
 */
export const SEALED_COLUMNS = [
  { subgraph: 'merchant', table: 'bank_credentials', column: 'secret_sealed', key: 'id' },
  { subgraph: 'merchant', table: 'bank_webhook_endpoints', column: 'secret_sealed', key: 'bank_id' },
  { subgraph: 'merchant', table: 'partner_credentials', column: 'secret_sealed', key: 'id' },
  { subgraph: 'outlet', table: 'settlement_accounts', column: 'account_number_sealed', key: 'id' },
] as const satisfies readonly SealedColumn[];
export type SealedTable = (typeof SEALED_COLUMNS)[number]['table'];

export interface ReencryptionCounts {
  /** Rows with a sealed value. */
  scanned: number;
  /** Sealed again under the current key now. */
  resealed: number;
  /** Already under the current key (nothing written). */
  current: number;
  /** Changed by someone else between the read and the write (left alone: a new write is sealed with the current key). */
  changed_meanwhile: number;
  /** Keys of rows no accepted key opens (keep the old key in SECRETS_ENCRYPTION_KEY_PREVIOUS and investigate). */
  unreadable: string[];
}

const BATCH = 500;

/**
 * Moves the sealed values of `columns` (one subgraph's, on that subgraph's connection) to the current
 * SECRETS_ENCRYPTION_KEY (docs/operations.md, "Rotating secrets"). Row by row, each write a compare-and-swap on the
 * value read, so traffic that reads or replaces secrets meanwhile is never blocked and never loses its write; a value
 * already under the current key is left alone, so running it again changes nothing.
 */
export class SealedSecretReencryption {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  async run(columns: readonly SealedColumn[]): Promise<Partial<Record<SealedTable, ReencryptionCounts>>> {
    const result: Partial<Record<string, ReencryptionCounts>> = {};
    for (const column of columns) result[column.table] = await this.reencryptColumn(column);
    return result;
  }

  private async reencryptColumn({ subgraph, table, column, key }: SealedColumn): Promise<ReencryptionCounts> {
    const counts: ReencryptionCounts = { scanned: 0, resealed: 0, current: 0, changed_meanwhile: 0, unreadable: [] };
    let after: string | null = null;
    for (;;) {
      const query = this.db(`${subgraph}.${table}`).select({ key, sealed: column }).whereNotNull(column).orderBy(key).limit(BATCH);
      if (after !== null) void query.where(key, '>', after);
      const rows = (await query) as { key: string; sealed: string }[];
      for (const row of rows) {
        counts.scanned++;
        let resealed: string | null;
        try {
          resealed = this.box.reseal(row.sealed);
        } catch {
          counts.unreadable.push(row.key);
          continue;
        }
        if (resealed === null) {
          counts.current++;
          continue;
        }
        const updated = await this.db(`${subgraph}.${table}`)
          .where({ [key]: row.key, [column]: row.sealed })
          .update({ [column]: resealed });
        if (updated === 1) counts.resealed++;
        else counts.changed_meanwhile++;
      }
      if (rows.length < BATCH) return counts;
      after = rows[rows.length - 1].key;
    }
  }
}
