import { adminQuery, sparePattern } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const template = globalThis.__qrisTestTemplate;
  if (template) {
    // The spare copies left when the workers ended (test-database.ts), then the template.
    const spares = await adminQuery<{ datname: string }>(template.adminUrl, `select datname from pg_database where datname like $1`, [
      sparePattern(template.name),
    ]);
    for (const { datname } of spares) await adminQuery(template.adminUrl, `DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await adminQuery(template.adminUrl, `DROP DATABASE IF EXISTS ${template.name} WITH (FORCE)`);
  }
  await globalThis.__qrisTestEmbedded?.stop();
}
