/** Columns whose bigint values arrive as decimal strings from PostgreSQL: amounts and quantities. */
const isInteger = (key: string) => key.endsWith('_amount') || key === 'quantity';

/**
 * A stored row as a device reads it (core-api.md §4 Sync): timestamps (`*_at`) in epoch milliseconds, booleans as
 * 0 or 1, amounts and quantities as numbers.
 */
export function toDeviceRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'boolean') out[key] = value ? 1 : 0;
    else if (key.endsWith('_at') && typeof value === 'string') out[key] = Date.parse(value);
    else if (isInteger(key) && typeof value === 'string') out[key] = Number(value);
    else out[key] = value;
  }
  return out;
}
