import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';
import { type NewPaymentFeedRow, PaymentFeedRepository } from './payment-feed.repository';

/** The feed's ids follow commit order (docs/decisions/0202-live-payment-events.md), on real PostgreSQL. */
describe('PaymentFeedRepository.append (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  const row = (): NewPaymentFeedRow => ({
    kind: 'transaction.success',
    merchant_id: uuidv7(),
    outlet_id: uuidv7(),
    terminal_id: null,
    transaction_id: uuidv7(),
    transaction_code: `TRX-${uuidv7()}`,
    reference_number: null,
    bank_code: 'BFEED',
    nmid: 'ID1026120400009',
    amount: 1000,
    transaction_at: new Date(),
    qris_payment_id: null,
    bill_number: null,
    sales_order_id: null,
  });
  const idOf = async (trx: Knex.Transaction, transactionId: string) =>
    BigInt((await trx.raw(`select id from "transaction".payment_feed where transaction_id = ?`, [transactionId])).rows[0].id);

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(transactionSubgraph, loadConfig({ DATABASE_URL: database.adminUrl }));
  });
  afterAll(async () => {
    await orm?.close(true);
    await database?.drop();
  });

  it('makes a second append wait for the first one’s transaction to end, so ids are handed out in commit order', async () => {
    const em = orm.em.fork() as EntityManager;
    const knex = em.getKnex();
    const [first, second] = [await knex.transaction(), await knex.transaction()];
    const [a, b] = [row(), row()];
    await new PaymentFeedRepository(em, first).append([a]);
    let waited = true;
    const pending = new PaymentFeedRepository(em, second).append([b]).then(() => (waited = false));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(waited).toBe(true);
    const firstId = await idOf(first, a.transaction_id!);
    await first.commit();
    await pending;
    const secondId = await idOf(second, b.transaction_id!);
    await second.commit();
    expect(secondId).toBeGreaterThan(firstId);
  });
});
