import type { Knex } from '@mikro-orm/postgresql';
import type { SecretBox } from '@lib/crypto/secret-box';

/** Every column that holds a SecretBox-sealed value, with the key of its row. */
export const SEALED_COLUMNS = [
  { table: 'bank_credentials', key: 'id' },
  { table: 'bank_webhook_endpoints', key: 'bank_id' },
  { table: 'partner_credentials', key: 'id' },
] as const;
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
 * Moves every sealed secret of the merchant subgraph (bank keys, webhook secrets, HMAC partner secrets) to the current
 * SECRETS_ENCRYPTION_KEY (docs/operations.md, "Rotating secrets"). Row by row, each write a compare-and-swap on the
 * value read, so traffic that reads or replaces secrets meanwhile is never blocked and never loses its write; a value
 * already under the current key is left alone, so running it again changes nothing.
 */
export class SealedSecretReencryption {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  async run(): Promise<Record<SealedTable, ReencryptionCounts>> {
    const result = {} as Record<SealedTable, ReencryptionCounts>;
    for (const { table, key } of SEALED_COLUMNS) result[table] = await this.reencryptTable(table, key);
    return result;
  }

  private async reencryptTable(table: SealedTable, key: string): Promise<ReencryptionCounts> {
    const counts: ReencryptionCounts = { scanned: 0, resealed: 0, current: 0, changed_meanwhile: 0, unreadable: [] };
    let after: string | null = null;
    for (;;) {
      const query = this.db(`merchant.${table}`)
        .select({ key, sealed: 'secret_sealed' })
        .whereNotNull('secret_sealed')
        .orderBy(key)
        .limit(BATCH);
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
        const updated = await this.db(`merchant.${table}`)
          .where({ [key]: row.key, secret_sealed: row.sealed })
          .update({ secret_sealed: resealed });
        if (updated === 1) counts.resealed++;
        else counts.changed_meanwhile++;
      }
      if (rows.length < BATCH) return counts;
      after = rows[rows.length - 1].key;
    }
  }
}
