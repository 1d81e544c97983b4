import { loadConfig } from '../config/config';
import { subgraphDatabaseUrl, subgraphDirectDatabaseUrl, subgraphReadDatabaseUrl } from './database-urls';

describe('subgraph database URLs: pools through a pooler, LISTEN sessions direct', () => {
  const admin = 'postgres://postgres:secret@db.internal:5432/qris';

  it('derives both from DATABASE_URL with the role, the pool at the pooler’s address when one is set', () => {
    const plain = loadConfig({ DATABASE_URL: admin, DB_ROLE_PASSWORD: 'role-password-0123' });
    expect(subgraphDatabaseUrl(plain, 'merchant')).toBe('postgres://qris_merchant:role-password-0123@db.internal:5432/qris');
    expect(subgraphDirectDatabaseUrl(plain, 'merchant')).toBe(subgraphDatabaseUrl(plain, 'merchant'));

    const pooled = loadConfig({ DATABASE_URL: admin, DB_ROLE_PASSWORD: 'role-password-0123', DATABASE_POOLER_ADDRESS: 'pgbouncer:6432' });
    expect(subgraphDatabaseUrl(pooled, 'outlet')).toBe('postgres://qris_outlet:role-password-0123@pgbouncer:6432/qris');
    expect(subgraphDirectDatabaseUrl(pooled, 'outlet')).toBe('postgres://qris_outlet:role-password-0123@db.internal:5432/qris');
    // A test's own database on the same server keeps its name through the pooler.
    expect(subgraphDatabaseUrl(pooled, 'outlet', 'postgres://root@127.0.0.1:5432/qris_t_1')).toBe(
      'postgres://qris_outlet:role-password-0123@pgbouncer:6432/qris_t_1',
    );
  });

  it('takes explicit URLs as they are: <NAME>_DIRECT_DATABASE_URL for LISTEN, else <NAME>_DATABASE_URL', () => {
    const config = loadConfig({
      DATABASE_URL: admin,
      DATABASE_POOLER_ADDRESS: 'pgbouncer:6432',
      TRANSACTION_DATABASE_URL: 'postgres://tx:pw@pgbouncer:6432/qris',
      TRANSACTION_DIRECT_DATABASE_URL: 'postgres://tx:pw@db.internal:5432/qris',
      CATALOG_DATABASE_URL: 'postgres://cat:pw@db.internal:5432/qris',
    });
    expect(subgraphDatabaseUrl(config, 'transaction')).toBe('postgres://tx:pw@pgbouncer:6432/qris');
    expect(subgraphDirectDatabaseUrl(config, 'transaction')).toBe('postgres://tx:pw@db.internal:5432/qris');
    expect(subgraphDirectDatabaseUrl(config, 'catalog')).toBe('postgres://cat:pw@db.internal:5432/qris');
    expect(config.database.namedStatements).toBe(true);
    expect(loadConfig({ DB_PREPARED_STATEMENTS: 'unnamed' }).database.namedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_POOLER_ADDRESS: 'postgres://pgbouncer:6432' })).toThrow(/DATABASE_POOLER_ADDRESS/);
  });

  it('read URLs: <NAME>_READ_DATABASE_URL, else DATABASE_READ_URL with the role (never the pooler), else none', () => {
    expect(subgraphReadDatabaseUrl(loadConfig({ DATABASE_URL: admin }), 'merchant')).toBeUndefined();
    const config = loadConfig({
      DATABASE_URL: admin,
      DATABASE_POOLER_ADDRESS: 'pgbouncer:6432',
      DB_ROLE_PASSWORD: 'role-password-0123',
      DATABASE_READ_URL: 'postgres://postgres:secret@db-replica.internal:5432/qris',
      CATALOG_READ_DATABASE_URL: 'postgres://cat:pw@db-replica.internal:5432/qris',
    });
    expect(subgraphReadDatabaseUrl(config, 'merchant')).toBe('postgres://qris_merchant:role-password-0123@db-replica.internal:5432/qris');
    expect(subgraphReadDatabaseUrl(config, 'catalog')).toBe('postgres://cat:pw@db-replica.internal:5432/qris');
    expect(config.database.replicaMaxLagMs).toBe(5000);
  });
});
