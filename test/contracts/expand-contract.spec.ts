import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Migration } from '@mikro-orm/migrations';
import { projectRoot } from '@lib/config/project-root';
import { contractProblems, removalsOf, upStatements } from '@lib/db/migration-safety';
import { SUBGRAPHS } from '@subgraphs';

/**
 * Migrations are safe for rolling deploys (lib/db/migration-safety.ts, docs/decisions/0003-data-access.md): a
 * migration newer than the rule drops or renames nothing the previous release may still read.
 */
const ROOT = projectRoot();
const RELEASE = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The subgraph's code outside its migrations, as one text. */
function sourceOf(subgraph: string): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== 'migrations') walk(full);
      } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) texts.push(readFileSync(full, 'utf8'));
    }
  };
  walk(path.join(ROOT, 'subgraphs', subgraph, 'src'));
  return texts.join('\n');
}

/** Whether `source` names the table or column of `object` (snake_case as in SQL, or camelCase as an entity property). */
const reads = (source: string) => (object: string) => {
  const name = object.split('.').pop()!;
  const camel = name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  return new RegExp(`\\b(${name}|${camel})\\b`).test(source);
};

describe('migrations are safe for rolling deploys (expand/contract)', () => {
  it.each(SUBGRAPHS.map((s) => [s.name, s] as const))(
    '%s: no migration after the rule removes what the previous release reads',
    async (name, definition) => {
      const source = sourceOf(name);
      const problems = (await Promise.all(definition.migrations.map((m) => contractProblems(m, RELEASE, reads(source))))).flat();
      expect(problems).toEqual([]);
      // Every migration's statements are read without a database (a new one that needs one fails here, unchecked).
      for (const migration of definition.migrations) expect((await upStatements(migration)).length).toBeGreaterThan(0);
    },
  );

  it('sees the last contraction before the rule (a column dropped while no release read it)', async () => {
    const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
    const last = merchant.migrations.find((m) => m.name === 'Migration20261210100000_webhook_attempts_without_bodies')!;
    expect((await upStatements(last)).flatMap(removalsOf).map((r) => r.object)).toEqual(['webhook_attempts.response_excerpt']);
  });

  it('finds the tables and columns a statement drops or renames, and nothing an expansion does', () => {
    expect(removalsOf('drop table if exists merchant.a, merchant."b" cascade').map((r) => r.object)).toEqual(['a', 'b']);
    expect(
      removalsOf('alter table merchant.users drop column email, drop column if exists "phone", add column x text').map((r) => r.object),
    ).toEqual(['users.email', 'users.phone']);
    expect(
      removalsOf('alter table merchant.users rename column email to mail; alter table merchant.old rename to new').map((r) => r.object),
    ).toEqual(['users.email', 'old']);
    expect(
      removalsOf('alter table merchant.users add column nickname text; create index on merchant.users (nickname); -- drop table x'),
    ).toEqual([]);
  });

  it('refuses an undeclared contraction, one declared by the release that ships it, and one of what the code still reads', async () => {
    class Migration20300101000000_drop_email extends Migration {
      override async up(): Promise<void> {
        this.addSql('alter table merchant.users drop column email');
      }
    }
    class Migration20300101000001_drop_email_declared extends Migration {
      static readonly contract = { removes: ['users.email'], unreadSince: '0.0.9' };
      override async up(): Promise<void> {
        this.addSql('alter table merchant.users drop column email');
      }
    }
    class Migration20300101000002_drop_email_too_soon extends Migration {
      static readonly contract = { removes: ['users.email'], unreadSince: RELEASE };
      override async up(): Promise<void> {
        this.addSql('alter table merchant.users drop column email');
      }
    }
    const check = (cls: new (...args: never[]) => Migration, stillRead = false) =>
      contractProblems({ name: cls.name, class: cls as never }, RELEASE, () => stillRead);
    expect(await check(Migration20300101000000_drop_email)).toEqual([
      expect.stringMatching(/drops or renames users\.email .*previous release may still read it/),
    ]);
    expect(await check(Migration20300101000001_drop_email_declared)).toEqual([]);
    expect(await check(Migration20300101000001_drop_email_declared, true)).toEqual([
      expect.stringMatching(/removes users\.email, which the code still reads/),
    ]);
    expect(await check(Migration20300101000002_drop_email_too_soon)).toEqual([
      expect.stringMatching(/the previous release still reads them/),
    ]);
  });
});
