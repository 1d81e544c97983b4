import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { withDatabase } from '@lib/db/database-urls';

/** Set by the global setup for every worker. */
export const ADMIN_URL_ENV = 'QRIS_TEST_ADMIN_URL';
export const TEMPLATE_ENV = 'QRIS_TEST_TEMPLATE_DB';
export const TEST_DB_PREFIX = 'qris_t_';

export interface TestDatabase {
  adminUrl: string;
  name: string;
  drop(): Promise<void>;
}

export async function adminQuery<T extends object = Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * A private database for one test file: a copy of the template the global setup migrated and seeded
 * (reference and demo data), made in milliseconds by CREATE DATABASE … TEMPLATE, dropped afterwards.
 */
export async function cloneTemplateDatabase(): Promise<TestDatabase> {
  const admin = process.env[ADMIN_URL_ENV];
  const template = process.env[TEMPLATE_ENV];
  if (!admin || !template) throw new Error('test database not prepared: run the tests through jest (global setup)');
  const name = `${TEST_DB_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  const maintenance = withDatabase(admin, 'postgres');
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(maintenance, `CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (error) {
      // Two workers cloning at the same instant can see each other as "accessing" the template.
      if (attempt >= 10 || !/being accessed by other users/.test((error as Error).message)) throw error;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
  return {
    adminUrl: withDatabase(admin, name),
    name,
    drop: async () => {
      await adminQuery(maintenance, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
