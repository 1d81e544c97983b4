import DataLoader from 'dataloader';

/** One row per key: `fetch` loads all keys of a batch in one query; missing keys resolve to null. */
export function loaderByKey<K, V>(fetch: (keys: K[]) => Promise<V[]>, keyOf: (row: V) => K): DataLoader<K, V | null> {
  return new DataLoader(async (keys) => {
    const rows = await fetch([...keys]);
    const byKey = new Map(rows.map((row) => [keyOf(row), row]));
    return keys.map((key) => byKey.get(key) ?? null);
  });
}

/** Many rows per key (e.g. outlets of merchants): one query per batch, grouped in memory. */
export function loaderGroupedByKey<K, V>(fetch: (keys: K[]) => Promise<V[]>, keyOf: (row: V) => K): DataLoader<K, V[]> {
  return new DataLoader(async (keys) => {
    const rows = await fetch([...keys]);
    const groups = new Map<K, V[]>();
    for (const row of rows) {
      const key = keyOf(row);
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    return keys.map((key) => groups.get(key) ?? []);
  });
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
