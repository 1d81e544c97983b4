/**
 * Plain-row reads for hot read-only paths: SQL that selects an entity's columns under the entity's property names
 * (`m.merchant_code as "merchantCode"`), so a wire mapper written for the entity can take the row as it is,
 * without hydrating entities. The ORM's connection returns timestamptz as text; `timestamps` turns them back.
 */
export function columnsAs(alias: string, properties: readonly string[]): string {
  return properties.map((property) => `${alias}.${property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} as "${property}"`).join(', ');
}

/** The row with these timestamp properties as Dates (null stays null). */
export function withDates<T extends Record<string, unknown>>(row: T, properties: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const property of properties) {
    const value = row[property];
    out[property] = value == null ? null : new Date(value as string);
  }
  return out as T;
}
