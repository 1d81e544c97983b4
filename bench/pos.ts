import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { request } from 'undici';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { loadConfig } from '@lib/config/config';
import { HOST, envInt, median, progress, startBenchStack, stopAll } from './harness';

/**
 * Point of sale through the full stack (REST → gateway → catalog subgraph → PostgreSQL): one 500-item push of sales
 * orders and a full pull of 10,000 products (pages of 200), each BENCH_ROUNDS times. Not a test: it reports times.
 */
const ROUNDS = envInt('BENCH_ROUNDS', 3);
const PRODUCTS = envInt('BENCH_POS_PRODUCTS', 10_000);
const PORTS = { rest: envInt('BENCH_REST_PORT', 18480), gateway: envInt('BENCH_GATEWAY_PORT', 14400) };
const REST = `http://${HOST}:${PORTS.rest}`;
/** A merchant of its own (not the demo one), so the product count is exact. */
const MERCHANT = '019a0000-0000-7000-8000-0000000be001';
const OUTLET = DEMO.outlets[0].id;

async function call(method: 'GET' | 'POST', path: string, apiKey: string, body?: unknown): Promise<any> {
  const res = await request(`${REST}${path}`, {
    method,
    headers: { 'x-internal-api-key': apiKey, 'x-merchant-id': MERCHANT, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    progress(
      "DATABASE_URL is required, e.g. psql -h 127.0.0.1 -U root -d postgres -c 'create database qris_bench_pos'; DATABASE_URL=postgres://root@127.0.0.1:5432/qris_bench_pos npm run -s bench:pos",
    );
    process.exit(2);
  }
  const apiKey = loadConfig().secrets.internalApiKey;
  await startBenchStack({ databaseUrl, restPort: PORTS.rest, gatewayPort: PORTS.gateway });

  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    // 10,000 products with their default variants, in one transaction (idempotent by SKU).
    await pg.query(
      `
      insert into catalog.products (id, merchant_id, name, sku, sell_price_amount, track_stock, created_at, updated_at)
      select gen_random_uuid(), $1, 'Produk ' || n, 'BENCH-' || n, 1000 + n, n % 2 = 0, now(), now()
        from generate_series(1, $2) n
      on conflict do nothing`,
      [MERCHANT, PRODUCTS],
    );
    await pg.query(
      `
      insert into catalog.variants (id, merchant_id, product_id, name, sku, is_default, created_at, updated_at)
      select gen_random_uuid(), p.merchant_id, p.id, p.name, p.sku, true, now(), now() from catalog.products p
       where p.merchant_id = $1 and not exists (select 1 from catalog.variants v where v.product_id = p.id)`,
      [MERCHANT],
    );
    await pg.query('analyze catalog.products, catalog.variants');
    const variants = (await pg.query(`select id from catalog.variants where merchant_id = $1 order by sku limit 50`, [MERCHANT])).rows.map(
      (r) => r.id as string,
    );
    const priceOf = (
      await pg.query(
        `select v.id, p.sell_price_amount::int as price from catalog.variants v join catalog.products p on p.id = v.product_id where v.id = any($1::uuid[])`,
        [variants],
      )
    ).rows;
    const price = new Map(priceOf.map((r) => [r.id as string, r.price as number]));

    const pushTimes: number[] = [];
    const pullTimes: number[] = [];
    let pages = 0;
    let rows = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const items = Array.from({ length: 500 }, (_, i) => {
        const variant = variants[i % variants.length];
        const unit = price.get(variant)!;
        const total = unit * 2;
        return {
          outbox_id: randomUUID(),
          entity_type: 'sales_order',
          entity_id: randomUUID(),
          op: 'create',
          payload: {
            outlet_id: OUTLET,
            transacted_at: Date.now(),
            subtotal_amount: total,
            total_amount: total,
            paid_amount: total,
            change_amount: 0,
            items: [{ line_no: 1, variant_id: variant, quantity: 2, unit_price_amount: unit, line_total_amount: total }],
            payments: [{ method: 'cash', amount: total }],
          },
        };
      });
      let started = performance.now();
      const pushed = await call('POST', '/poslite/sync/push', apiKey, { items });
      pushTimes.push(performance.now() - started);
      if (pushed.accepted.length !== 500)
        throw new Error(`push accepted ${pushed.accepted.length} of 500: ${JSON.stringify(pushed.rejected).slice(0, 300)}`);

      started = performance.now();
      let since = 0;
      pages = 0;
      rows = 0;
      for (let more = true; more; pages++) {
        const page = await call('GET', `/poslite/sync/pull?entity=products&since=${since}&limit=200`, apiKey);
        rows += page.rows.length;
        since = page.server_time;
        more = page.has_more;
      }
      pullTimes.push(performance.now() - started);
      if (rows < PRODUCTS) throw new Error(`full pull returned ${rows} rows, expected ${PRODUCTS}`);
      progress(
        `round ${round}: push 500 ${pushTimes.at(-1)!.toFixed(0)} ms, pull ${rows} rows in ${pages} pages ${pullTimes.at(-1)!.toFixed(0)} ms`,
      );
    }
    process.stdout.write(
      JSON.stringify({
        rounds: ROUNDS,
        push_500_sales_orders_ms: { median: Math.round(median(pushTimes)), all: pushTimes.map(Math.round) },
        full_pull_products: {
          rows,
          pages,
          median_ms: Math.round(median(pullTimes)),
          all_ms: pullTimes.map(Math.round),
          per_page_ms: Math.round(median(pullTimes) / pages),
        },
      }) + '\n',
    );
  } finally {
    await pg.end();
    await stopAll();
  }
}

main().catch(async (error) => {
  progress(String(error?.stack ?? error));
  await stopAll();
  process.exit(1);
});
