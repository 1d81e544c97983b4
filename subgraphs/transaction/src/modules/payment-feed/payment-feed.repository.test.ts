import { Client } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';

/** The feed's ids follow commit order (docs/decisions/0202-live-payment-events.md), whoever inserts (real PostgreSQL). */
describe('payment feed ids (real PostgreSQL)', () => {
  let database: TestDatabase;
  let clients: Client[];
  const insert = (client: Client) =>
    client.query<{ id: string }>(
      `insert into "transaction".payment_feed (kind, merchant_id, outlet_id, transaction_id, transaction_code, bank_code, nmid, amount, transaction_at)
       values ('transaction.success', $1, $2, $3, $4, 'BFEED', 'ID1026120400009', 1000, now()) returning id`,
      [uuidv7(), uuidv7(), uuidv7(), `TRX-${uuidv7()}`],
    );

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    clients = [new Client({ connectionString: database.adminUrl }), new Client({ connectionString: database.adminUrl })];
    await Promise.all(clients.map((c) => c.connect()));
  });
  afterAll(async () => {
    await Promise.all((clients ?? []).map((c) => c.end()));
    await database?.drop();
  });

  it('makes a second insert wait for the first one’s transaction to end, so ids are handed out in commit order', async () => {
    const [first, second] = clients;
    await first.query('begin');
    const [{ id: firstId }] = (await insert(first)).rows;
    await second.query('begin');
    let waited = true;
    const pending = insert(second).then((result) => {
      waited = false;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(waited).toBe(true);
    await first.query('commit');
    const [{ id: secondId }] = (await pending).rows;
    await second.query('commit');
    expect(BigInt(secondId)).toBeGreaterThan(BigInt(firstId));
  });
});
