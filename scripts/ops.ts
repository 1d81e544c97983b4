import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config/config';
import { openDatabaseTarget } from '../lib/db/database-target';
import { migrateAll, seedDemo, seedReference } from './database-tasks';

/**
 * Operator command line: `npm run ops -- <command> [options]`, JSON on stdout. Works against the database
 * of a running `npm start` (same DATA_DIR or DATABASE_URL) while it runs.
 */
const COMMANDS: Record<string, { help: string; run: (adminUrl: string, options: Record<string, string | boolean | undefined>) => Promise<unknown> }> = {
  'db:migrate': {
    help: 'create the subgraph roles and schemas, apply pending migrations',
    run: (adminUrl) => migrateAll(loadConfig(), adminUrl),
  },
  'seed:reference': {
    help: 'import regions, postal codes and coordinates (--geo-csv FILE, default the shipped sample), business data, legal documents',
    run: (adminUrl, options) => seedReference(loadConfig(), adminUrl, options['geo-csv'] as string | undefined),
  },
  'seed:demo': {
    help: 'write the demo merchant, outlets, transactions and categories (idempotent)',
    run: (adminUrl) => seedDemo(loadConfig(), adminUrl),
  },
};

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { 'geo-csv': { type: 'string' }, help: { type: 'boolean' } } });
  const command = COMMANDS[positionals[0] ?? ''];
  if (!command || values.help) {
    const usage = Object.fromEntries(Object.entries(COMMANDS).map(([name, c]) => [name, c.help]));
    process.stdout.write(JSON.stringify({ usage: 'npm run ops -- <command> [options]', commands: usage }, null, 2) + '\n');
    return command || values.help ? 0 : 2;
  }
  const target = await openDatabaseTarget(loadConfig());
  try {
    const result = await command.run(target.adminUrl, values);
    process.stdout.write(JSON.stringify({ command: positionals[0], database: target.source, result }, null, 2) + '\n');
    return 0;
  } finally {
    await target.embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stdout.write(JSON.stringify({ error: error.message }) + '\n');
    process.exit(1);
  },
);
