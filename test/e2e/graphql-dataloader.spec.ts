import { SUBGRAPH_NAMES, type SubgraphName } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { gql, operatorHeaders } from '../support/graphql';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const MERCHANTS = 50;
/** Every relation is batched: the statement count does not grow with the number of merchants, outlets or transactions. */
const MAX_STATEMENTS = 10;

/** N+1 guard: a nested operator query over 50 merchants × outlets × terminals × latest transactions. */
describe('GraphQL batching (DataLoader on every reference and relation)', () => {
  let stack: TestStack;
  const statements: { subgraph: SubgraphName; sql: string }[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    for (const name of SUBGRAPH_NAMES) {
      stack.subgraphs[name].app
        .orm!.em.getKnex()
        .on('query', (query: { sql: string }) => statements.push({ subgraph: name, sql: query.sql }));
    }
    const url = stack.database.adminUrl;
    // 50 merchants copied from the demo merchant, two outlets each with one terminal, three transactions each.
    await adminQuery(
      url,
      `insert into merchant.merchants
       select (jsonb_populate_record(null::merchant.merchants, to_jsonb(m) || jsonb_build_object('id', md5('bulk-m' || g)::uuid, 'merchant_code', 'MRC-BULK' || lpad(g::text, 6, '0'),
               'name', 'Bulk merchant ' || g, 'referral_code', null, 'primary_nmid', null, 'phone', null, 'email', null, 'npwp', null))).*
         from merchant.merchants m, generate_series(1, $2::int) g where m.id = $1`,
      [DEMO.merchantId, MERCHANTS],
    );
    await adminQuery(
      url,
      `insert into outlet.outlets
       select (jsonb_populate_record(null::outlet.outlets, to_jsonb(o) || jsonb_build_object('id', md5('bulk-o' || g || '-' || k)::uuid, 'merchant_id', md5('bulk-m' || g)::uuid,
               'code', 'OUT' || k, 'name', 'Bulk outlet ' || g || '/' || k, 'nmid', null, 'nmid_bank_code', null, 'mid', null, 'is_default', k = 1))).*
         from outlet.outlets o, generate_series(1, $2::int) g, generate_series(1, 2) k where o.id = $1`,
      [DEMO.outlets[0].id, MERCHANTS],
    );
    await adminQuery(
      url,
      `insert into outlet.terminals
       select (jsonb_populate_record(null::outlet.terminals, to_jsonb(t) || jsonb_build_object('id', md5('bulk-t' || g || '-' || k)::uuid, 'merchant_id', md5('bulk-m' || g)::uuid,
               'outlet_id', md5('bulk-o' || g || '-' || k)::uuid, 'tid', null, 'serial_number', null))).*
         from (select * from outlet.terminals where merchant_id = $1 limit 1) t, generate_series(1, $2::int) g, generate_series(1, 2) k`,
      [DEMO.merchantId, MERCHANTS],
    );
    await adminQuery(
      url,
      `insert into "transaction".transactions
       select (jsonb_populate_record(null::"transaction".transactions, to_jsonb(x) || jsonb_build_object('id', md5('bulk-x' || g || '-' || k)::uuid, 'merchant_id', md5('bulk-m' || g)::uuid,
               'outlet_id', md5('bulk-o' || g || '-' || (k % 2 + 1))::uuid, 'terminal_id', null, 'transaction_code', 'BULK-' || g || '-' || k,
               'external_reference', null, 'rrn', null, 'transaction_at', now() - k * interval '1 hour'))).*
         from (select * from "transaction".transactions where merchant_id = $1 limit 1) x, generate_series(1, $2::int) g, generate_series(1, 3) k`,
      [DEMO.merchantId, MERCHANTS],
    );
  });
  afterAll(async () => {
    await stack?.close();
  });

  it(`answers 50 merchants × outlets × terminals × latest transactions in at most ${MAX_STATEMENTS} statements`, async () => {
    const headers = await operatorHeaders(stack, ['support']);
    const query = `{
      merchantSearch(query: "Bulk merchant", first: ${MERCHANTS}) {
        items {
          id merchantCode bankCode
          outlets { id name terminals { id status } }
          defaultOutlet { id }
          latestTransactions(last: 3) { id grossAmount outlet { id name } }
          transactions(first: 2) { edges { node { id } } pageInfo { hasNextPage } }
        }
      }
    }`;
    // Warm the gateway's plan cache and the subgraphs' schemas, then count one request.
    await gql(stack, query, {}, headers);
    statements.length = 0;
    const answer = await gql(stack, query, {}, headers);
    expect(answer.errors).toBeUndefined();
    const items = answer.data.merchantSearch.items;
    expect(items).toHaveLength(MERCHANTS);
    for (const merchant of items) {
      expect(merchant.outlets).toHaveLength(2);
      expect(merchant.outlets.map((o: { terminals: unknown[] }) => o.terminals.length)).toEqual([1, 1]);
      expect(merchant.latestTransactions).toHaveLength(3);
      expect(merchant.latestTransactions.filter((t: { outlet: { name: string } }) => !t.outlet.name.startsWith('Bulk outlet'))).toEqual([]);
      expect(merchant.transactions.edges).toHaveLength(2);
    }
    // The hook sees the subgraphs' statements (each subgraph that answered ran at least one).
    expect(new Set(statements.map((s) => s.subgraph))).toEqual(new Set(['merchant', 'outlet', 'transaction']));
    const listing = statements.map((s) => `${s.subgraph}: ${s.sql.slice(0, 160)}`).join('\n');
    expect({ count: statements.length, withinBound: statements.length <= MAX_STATEMENTS, listing }).toEqual({
      count: statements.length,
      withinBound: true,
      listing,
    });
  });
});
