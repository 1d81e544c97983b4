/**
 * The outer realm's global names before the global setup loads any project module (imported first).
 * Jest copies the outer realm's globals into in-band test contexts, so registries that module loading
 * fills (MikroORM's and type-graphql's metadata) must be removed again, or tests would see objects of
 * the wrong realm.
 */
export const GLOBALS_AT_START = new Set(Object.getOwnPropertyNames(globalThis));

export function removeGlobalsAddedSinceStart(keep: (key: string) => boolean): void {
  for (const key of Object.getOwnPropertyNames(globalThis)) {
    if (!GLOBALS_AT_START.has(key) && !keep(key)) delete (globalThis as Record<string, unknown>)[key];
  }
}
