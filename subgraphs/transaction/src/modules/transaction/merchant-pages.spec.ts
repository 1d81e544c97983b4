import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';

const DAY_MS = 86_400_000;

/** The filters of `"transaction".merchant_pages`, by its parameter names. */
interface Filters {
  statuses?: string[];
  from_at?: string;
  to_at?: string;
  before_at?: string;
  after_at?: string;
  after_id?: string;
  outlet?: string;
}

/**
 * `"transaction".merchant_pages` on a real database with monthly partitions, catch-alls on both sides and rows in all
 * of them (docs/decisions/0018-transaction-lists-and-paging.md): one merchant's page, read in windows of
 * months, holds exactly the rows one ordered statement over the whole table gives, for every filter the repository
 * passes and for limits that end inside a window, on its edge, or beyond every row; several merchants' pages too.
 */
describe('merchant_pages (real PostgreSQL)', () => {
  let database: TestDatabase;
  let db: Client;
  const busy = randomUUID();
  const other = randomUUID();
  const outlets = [randomUUID(), randomUUID()];
  /** A Jakarta month start some months back: rows land exactly on a window's edge. */
  let edge: string;

  const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows as T[];

  const insert = async (merchantId: string, at: Date, n: number, id = randomUUID()) => {
    const status = ['success', 'success', 'failed', 'pending'][n % 4];
    await sql(
      `insert into "transaction".transactions (id, merchant_id, outlet_id, transaction_code, status, gross_amount, transaction_at, created_at,
         updated_at, payment_method, currency, mdr_rate, mdr_fee_amount, net_amount_after_mdr, settlement_status)
       values ($1, $2, $3, $4, $5, 10000, $6, $6, $6, 'qris', 'IDR', '0', 0, 10000, 'unsettled')`,
      [id, merchantId, outlets[n % 2], `MP-${id.slice(0, 13)}`, status, at],
    );
  };

  const FILTER_SQL: Record<keyof Filters, string> = {
    statuses: 'status = any($X::text[])',
    from_at: 'transaction_at >= $X::timestamptz',
    to_at: 'transaction_at <= $X::timestamptz',
    before_at: 'transaction_at < $X::timestamptz',
    after_at: '(transaction_at, id) < ($X::timestamptz, $Y::uuid)',
    after_id: '',
    outlet: 'outlet_id = $X::uuid',
  };

  /** What one ordered statement over the whole table gives. */
  const expected = async (merchantId: string, filters: Filters, limit: number) => {
    const params: unknown[] = [merchantId, limit];
    const where = ['merchant_id = $1'];
    for (const [name, value] of Object.entries(filters) as [keyof Filters, unknown][]) {
      if (name === 'after_id') continue;
      params.push(value);
      let condition = FILTER_SQL[name].replace('$X', `$${params.length}`);
      if (name === 'after_at') {
        params.push(filters.after_id);
        condition = condition.replace('$Y', `$${params.length}`);
      }
      where.push(condition);
    }
    const rows = await sql<{ id: string }>(
      `select id from "transaction".transactions where ${where.join(' and ')} order by transaction_at desc, id desc limit $2`,
      params,
    );
    return rows.map((r) => r.id);
  };

  const paged = async (merchantIds: string[], filters: Filters, limit: number) => {
    const rows = await sql<{ id: string }>(
      `select p.id from "transaction".merchant_pages($1::uuid[], $2::int, statuses => $3::text[], from_at => $4::timestamptz,
              to_at => $5::timestamptz, before_at => $6::timestamptz, after_at => $7::timestamptz, after_id => $8::uuid, outlet => $9::uuid) p
        order by p.merchant_id, p.transaction_at desc, p.id desc`,
      [
        merchantIds,
        limit,
        filters.statuses ?? null,
        filters.from_at ?? null,
        filters.to_at ?? null,
        filters.before_at ?? null,
        filters.after_at ?? null,
        filters.after_id ?? null,
        filters.outlet ?? null,
      ],
    );
    return rows.map((r) => r.id);
  };

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    db = new Client({ connectionString: database.adminUrl });
    await db.connect();
    // Months from 20 back to 3 ahead; older rows stay in the history catch-all, rows further ahead in the future one.
    await sql(
      `select "transaction".ensure_month_partitions(t, (now() - interval '20 months')::date, (now() + interval '3 months')::date)
         from unnest(array['transactions', 'payment_events']) t`,
    );
    [{ edge }] = await sql<{ edge: string }>(
      `select "transaction".month_start((date_trunc('month', now() at time zone 'Asia/Jakarta') - interval '5 months')::date) as edge`,
    );
    // The busy merchant: a row every 9 days from 40 months back to 6 months ahead, three at one instant on a
    // window's edge and one a microsecond before it; the other merchant: a row every 23 days over the same span.
    const now = Date.now();
    let n = 0;
    for (let t = now - 1220 * DAY_MS; t < now + 180 * DAY_MS; t += 9 * DAY_MS) await insert(busy, new Date(t), n++);
    for (let i = 0; i < 3; i++) await insert(busy, new Date(edge), n++);
    await insert(busy, new Date(new Date(edge).getTime() - 0.001), n++);
    for (let t = now - 1200 * DAY_MS; t < now + 150 * DAY_MS; t += 23 * DAY_MS) await insert(other, new Date(t), n++);
    await sql('analyze "transaction".transactions');
  });
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  it('stores the rows in monthly partitions and both catch-alls', async () => {
    const parts = await sql<{ p: string }>(
      `select distinct tableoid::regclass::text as p from "transaction".transactions where merchant_id = $1`,
      [busy],
    );
    const names = parts.map((r) => r.p);
    expect(names).toContain('transaction.transactions_history');
    expect(names).toContain('transaction.transactions_future');
    expect(names.filter((p) => /_p\d{4}_\d{2}$/.test(p)).length).toBeGreaterThanOrEqual(20);
  });

  it('reads one merchant’s page as one ordered statement does, for every filter and limit', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString();
    const all = await expected(busy, {}, 10_000);
    const cursor = all[70];
    const [cursorRow] = await sql<{ at: Date }>('select transaction_at as at from "transaction".transactions where id = $1', [cursor]);
    const windows: Filters[] = [
      {},
      { statuses: ['success'] },
      { outlet: outlets[1] },
      { from_at: day(-30), to_at: day(0) },
      { from_at: day(-400) },
      { to_at: day(-365) },
      { before_at: edge },
      { to_at: edge },
      { before_at: day(-700), from_at: day(-1000) },
      { after_at: cursorRow.at.toISOString(), after_id: cursor },
      { after_at: edge, after_id: 'ffffffff-ffff-ffff-ffff-ffffffffffff', statuses: ['success', 'failed'] },
      { to_at: day(-2000) },
    ];
    for (const filters of windows) {
      for (const limit of [1, 2, 4, 17, 40, 60, 155, 10_000]) {
        const want = await expected(busy, filters, limit);
        expect({ filters, limit, ids: await paged([busy], filters, limit) }).toEqual({ filters, limit, ids: want });
      }
    }
    expect(all.length).toBeGreaterThan(150);
  });

  it('reads several merchants’ pages in one call, each as its own statement does', async () => {
    for (const limit of [1, 5, 80, 10_000]) {
      const byMerchant = await Promise.all([busy, other].sort().map((m) => expected(m, { statuses: ['success'] }, limit)));
      expect(await paged([busy, other], { statuses: ['success'] }, limit)).toEqual(byMerchant.flat());
    }
  });
});
