import { Repository } from '@lib/db/repository';

/** Customers (`catalog.customers`), written by device pushes inside their transaction. */
export class CustomerRepository extends Repository {
  /**
   * Inserts the customer, or updates it (and undeletes it) when the id exists and is the merchant's; false when
   * the id is another merchant's customer.
   */
  async upsert(c: {
    id: string;
    merchantId: string;
    name: string | null;
    phone: string | null;
    email: string | null;
    note: string | null;
    now: Date;
  }): Promise<boolean> {
    const rows = await this.rows(
      `insert into catalog.customers (id, merchant_id, name, phone, email, note, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (id) do update set name = excluded.name, phone = excluded.phone, email = excluded.email, note = excluded.note,
       updated_at = excluded.updated_at, deleted_at = null
     where catalog.customers.merchant_id = excluded.merchant_id
     returning id`,
      [c.id, c.merchantId, c.name, c.phone, c.email, c.note, c.now, c.now],
    );
    return rows.length > 0;
  }

  /** The merchant's customer (deleted or not): its deleted_at; undefined when there is none. */
  ofMerchant(merchantId: string, id: string): Promise<{ deleted_at: Date | null } | undefined> {
    return this.db('catalog.customers').where({ id, merchant_id: merchantId }).first('deleted_at');
  }

  async exists(merchantId: string, id: string): Promise<boolean> {
    return (await this.db('catalog.customers').where({ id, merchant_id: merchantId }).first('id')) !== undefined;
  }

  async softDelete(id: string): Promise<void> {
    await this.db('catalog.customers').where({ id }).update({ deleted_at: new Date(), updated_at: new Date() });
  }
}
