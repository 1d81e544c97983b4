/** Columns whose bigint values arrive as decimal strings from PostgreSQL. */
const INTEGER_COLUMNS = new Set(['sell_price_amount', 'cost_price_amount', 'quantity']);

/**
 * A stored row as a device reads it (core-api.md §4 Sync): timestamps (`*_at`) in epoch milliseconds, booleans as
 * 0 or 1, amounts and quantities as numbers; the internal sync_version stays out.
 */
export function toDeviceRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === 'sync_version') continue;
    if (typeof value === 'boolean') out[key] = value ? 1 : 0;
    else if (key.endsWith('_at') && typeof value === 'string') out[key] = Date.parse(value);
    else if (INTEGER_COLUMNS.has(key) && typeof value === 'string') out[key] = Number(value);
    else out[key] = value;
  }
  return out;
}

/** The watermark as the JSON number the spec's `server_time` is; versions stay below 2^53 (docs/decisions/0055-pos-sync-pull.md). */
export function toServerTime(watermark: string): number {
  const value = Number(watermark);
  if (!Number.isSafeInteger(value)) throw new Error(`sync watermark ${watermark} exceeds a safe JSON integer`);
  return value;
}
