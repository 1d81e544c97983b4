import type { Knex } from '@mikro-orm/postgresql';
import { PushRejection, text } from '../pos/push-rejection';

/**
 * Customers are written by devices (sync push `customer` upsert/delete) and read back by sync pull. An id of
 * another merchant's customer is "not found": the upsert's conflict branch only updates the caller's own row.
 */
export async function upsertCustomer(trx: Knex, merchantId: string, id: string, payload: Record<string, unknown>): Promise<void> {
  const name = text(payload, 'name', 200, true);
  const phone = text(payload, 'phone', 32, false);
  const email = text(payload, 'email', 254, false);
  const note = text(payload, 'note', 2000, false);
  const now = new Date();
  const result = await trx.raw(
    `insert into catalog.customers (id, merchant_id, name, phone, email, note, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (id) do update set name = excluded.name, phone = excluded.phone, email = excluded.email, note = excluded.note,
       updated_at = excluded.updated_at, deleted_at = null
     where catalog.customers.merchant_id = excluded.merchant_id
     returning id`,
    [id, merchantId, name, phone, email, note, now, now],
  );
  if (result.rows.length === 0) throw new PushRejection('customer not found');
}

/** Soft delete; deleting a deleted customer again is accepted (the device's intent holds). */
export async function deleteCustomer(trx: Knex, merchantId: string, id: string): Promise<void> {
  const row = await trx('catalog.customers').where({ id, merchant_id: merchantId }).first('deleted_at');
  if (!row) throw new PushRejection('customer not found');
  if (!row.deleted_at) await trx('catalog.customers').where({ id }).update({ deleted_at: new Date(), updated_at: new Date() });
}
