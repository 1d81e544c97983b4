import { adminQuery, dropSpares } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const template = globalThis.__qrisTestTemplate;
  if (template) {
    await dropSpares(template.adminUrl, template.name);
    await adminQuery(template.adminUrl, `DROP DATABASE IF EXISTS ${template.name} WITH (FORCE)`);
  }
  await globalThis.__qrisTestEmbedded?.stop();
}
