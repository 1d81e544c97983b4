import { PushRejection, text } from '../pos/push-rejection';
import type { CustomerRepository } from './customer.repository';

/**
 * Customers are written by devices (sync push `customer` upsert/delete) and read back by sync pull. An id of
 * another merchant's customer is "not found": the upsert's conflict branch only updates the caller's own row.
 */
export async function upsertCustomer(
  customers: CustomerRepository,
  merchantId: string,
  id: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const name = text(payload, 'name', 200, true);
  const phone = text(payload, 'phone', 32, false);
  const email = text(payload, 'email', 254, false);
  const note = text(payload, 'note', 2000, false);
  const now = new Date();
  if (!(await customers.upsert({ id, merchantId, name, phone, email, note, now }))) throw new PushRejection('customer not found');
}

/** Soft delete; deleting a deleted customer again is accepted (the device's intent holds). */
export async function deleteCustomer(customers: CustomerRepository, merchantId: string, id: string): Promise<void> {
  const row = await customers.ofMerchant(merchantId, id);
  if (!row) throw new PushRejection('customer not found');
  if (!row.deleted_at) await customers.softDelete(id);
}
