import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ops } from '@test/support/ops-cli';
import { type TestDatabase, adminQuery, cloneTemplateDatabase } from '@test/support/test-database';

describe('npm run ops', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    db = await cloneTemplateDatabase();
    env = { ...process.env, DATABASE_URL: db.adminUrl, NODE_ENV: 'development' };
  });
  afterAll(() => db?.drop());

  const banks = (code: string) => adminQuery(db.adminUrl, 'select code from merchant.banks where code = $1', [code]);

  it('names the nearest commands for a mistyped one, on stderr, with exit 2', async () => {
    const typo = await ops(['partner:credentail', '--partner', 'X'], env);
    expect(typo).toEqual({
      code: 2,
      stdout: null,
      stderr: [
        { error: { code: 'unknown_command', message: 'unknown command "partner:credentail"', did_you_mean: ['partner:credential'] } },
      ],
    });
    const part = await ops(['webhook'], env);
    expect(part.stderr[0].error.did_you_mean).toHaveLength(6);
    expect(part.stderr[0].error.did_you_mean).toEqual(
      expect.arrayContaining([
        'webhook:deliveries',
        'webhook:attempts',
        'webhook:redeliver',
        'webhook:test',
        'webhook:endpoint',
        'bank:webhook',
      ]),
    );
  });

  it('prints every option of a command, with its allowed values and default, for --help', async () => {
    const help = await ops(['partner:credential', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stderr).toEqual([]);
    expect(help.stdout!.options['--contract <value>']).toEqual({ description: 'response contract', required: true, values: ['A', 'B'] });
    expect(help.stdout!.options['--auth <value>']).toMatchObject({ values: ['jwt', 'hmac'], default: 'jwt' });
    expect(help.stdout!.options['--outlets']).toEqual({ description: 'enable the outlet endpoints' });
    const general = await ops(['--help'], env);
    expect(Object.keys(general.stdout!.commands)).toContain('bank:create');
  });

  it.each([
    [['bank:create', '--code', 'OPSX'], 'missing_option', '--name is required'],
    [['bank:create', '--code', 'OPSX', '--name', 'Ops', '--tier', 'gold'], 'invalid_option', '--tier must be one of tier1, external'],
    [['bank:create', '--code', 'OPSX', '--nmae', 'Ops'], 'invalid_arguments', expect.stringContaining("Unknown option '--nmae'")],
    [['bank:create', '--code', 'OPSX', '--name', 'Ops', 'extra'], 'invalid_arguments', expect.stringContaining('extra')],
  ])('refuses %j with %s and changes nothing', async (argv, code, message) => {
    const result = await ops(argv, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBeNull();
    expect(result.stderr).toEqual([{ error: expect.objectContaining({ code, message }) }]);
    expect(await banks('OPSX')).toEqual([]);
  });

  it('prints the result of a command on stdout and exits 0', async () => {
    const result = await ops(['bank:create', '--code', 'OPSB', '--name', 'Ops Bank', '--tier', 'tier1'], env);
    expect(result.stderr).toEqual([]);
    expect(result).toMatchObject({ code: 0, stdout: { command: 'bank:create', database: 'DATABASE_URL', result: { bank_code: 'OPSB' } } });
    expect(await banks('OPSB')).toEqual([{ code: 'OPSB' }]);
  });

  it('brings the bank view copies up to date with bank-view:sync, and rebuilds them with --all', async () => {
    await adminQuery(db.adminUrl, 'delete from outlet.merchant_profiles; delete from "transaction".payment_targets');
    const [{ n, targets }] = await adminQuery(
      db.adminUrl,
      `select (select count(*)::int from merchant.merchants) as n,
              (select count(*)::int from outlet.outlets where nmid is not null and deleted_at is null) as targets`,
    );
    expect(targets).toBeGreaterThan(0);
    const rebuilt = await ops(['bank-view:sync', '--all'], env);
    // One job of merchants for each copy, one of outlet sets.
    expect(rebuilt).toMatchObject({
      code: 0,
      stdout: { result: { enqueued_jobs: 3, copied_merchants: n, copied_payment_targets: targets, pending_jobs: 0, failed_jobs: [] } },
    });
    await adminQuery(db.adminUrl, `update merchant.merchants set name = name || ' Baru'`);
    expect((await ops(['bank-view:sync'], env)).stdout!.result).toEqual({
      enqueued_jobs: 0,
      copied_merchants: n,
      copied_payment_targets: targets,
      pending_jobs: 0,
      failed_jobs: [],
    });
    const stale = await adminQuery(
      db.adminUrl,
      'select 1 from merchant.merchants m join outlet.merchant_profiles p on p.merchant_id = m.id where p.name <> m.name',
    );
    expect(stale).toEqual([]);

    // A job that fails is answered with its error and stays queued for a retry.
    await adminQuery(db.adminUrl, `select graphile_worker.add_job('merchant_profiles', '{"profiles": 1}'::json, max_attempts => 25)`);
    expect((await ops(['bank-view:sync'], env)).stdout!.result).toEqual({
      enqueued_jobs: 0,
      copied_merchants: n,
      copied_payment_targets: targets,
      pending_jobs: 1,
      failed_jobs: [{ task: 'merchant_profiles', attempts: 1, error: expect.any(String) }],
    });
    await adminQuery(db.adminUrl, `select graphile_worker.complete_jobs(array(select id from graphile_worker.jobs))`);
  });

  it('archives old months with partitions:archive: refused within the online window, a dry run first, idempotent', async () => {
    const layout = async () => (await ops(['partitions:list'], env)).stdout!.result;
    const archiveSchema = () => adminQuery(db.adminUrl, `select 1 from pg_namespace where nspname = 'archive'`);
    const jakarta = new Date(Date.now() + 7 * 3600_000);
    const monthsBack = (n: number) => {
      const d = new Date(Date.UTC(jakarta.getUTCFullYear(), jakarta.getUTCMonth() - n, 1));
      return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    };
    const partition = (table: string, n: number) => `${table}_p${monthsBack(n).replace('-', '_')}`;
    expect((await ops(['partitions:ensure', '--from', `${monthsBack(15)}-10T00:00:00Z`], env)).code).toBe(0);
    const before = await layout();
    expect(before.archived).toEqual([]);
    for (const month of [monthsBack(0), monthsBack(11), monthsBack(-1), '2019-13', '201904']) {
      const refused = await ops(['partitions:archive', '--before', month], env);
      expect(refused).toMatchObject({ code: 2, stdout: null, stderr: [{ error: { code: 'invalid_option' } }] });
    }
    expect((await ops(['partitions:archive', '--before', monthsBack(11), '--dry-run'], env)).code).toBe(2);
    expect((await ops(['partitions:archive'], env)).stderr).toEqual([{ error: expect.objectContaining({ code: 'missing_option' }) }]);
    expect(await layout()).toEqual(before);
    expect(await archiveSchema()).toEqual([]);

    const plan = await ops(['partitions:archive', '--before', monthsBack(13), '--dry-run'], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout!.result).toMatchObject({ before: monthsBack(13), dry_run: true, archive_schema: 'archive' });
    expect(plan.stdout!.result.archived.map((a: { archived_as: string }) => a.archived_as)).toEqual(
      ['transactions', 'payment_events'].flatMap((t) => [15, 14].map((n) => `archive.${partition(t, n)}`)),
    );
    expect(await layout()).toEqual(before);
    expect(await archiveSchema()).toEqual([]);

    const done = await ops(['partitions:archive', '--before', monthsBack(12)], env);
    expect(done.stderr).toEqual([]);
    expect(done.code).toBe(0);
    const archived = done.stdout!.result.archived.map((a: { partition: string }) => a.partition);
    expect(archived).toEqual(['transactions', 'payment_events'].flatMap((t) => [15, 14, 13].map((n) => partition(t, n))));
    const after = await layout();
    const first = after.partitions.find(
      (p: { table: string; partition: string }) => p.table === 'transactions' && p.partition.includes('_p'),
    );
    expect(first.partition).toBe(partition('transactions', 12));
    expect(after.archived.map((a: { table: string }) => a.table).sort()).toEqual([...archived].sort());
    expect(await archiveSchema()).toEqual([{ '?column?': 1 }]);
    // Again: nothing more.
    expect((await ops(['partitions:archive', '--before', monthsBack(12)], env)).stdout!.result.archived).toEqual([]);
    expect(await layout()).toEqual(after);
  });

  it('answers a failed command with exit 1 and the error on stderr', async () => {
    const result = await ops(['merchant:status', '--id', '0190f1a0-0000-7000-8000-000000000000', '--to', 'active'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBeNull();
    expect(result.stderr).toEqual([{ error: { code: 'command_failed', message: expect.any(String) } }]);
  });

  it('warns when no running database is found, before it starts an embedded one for the command', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ops-cli-'));
    try {
      const { DATABASE_URL: _unset, ...rest } = env;
      const result = await ops(['dev:outbox'], { ...rest, DATA_DIR: dataDir, EMBEDDED_PG_PORT: '25499' });
      // (Jest's module loader cannot start the embedded server, which the built CLI does: only the warning is checked.)
      expect(result.stderr[0]).toEqual({ warning: { code: 'no_running_database', message: expect.stringContaining(dataDir) } });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
