import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO } from '../../../../lib/demo/demo-ids';

const HOUR = 3_600_000;

/** Twelve transactions over the last days, mostly successful, spread over both demo outlets. */
export async function seedTransactionDemo(em: EntityManager): Promise<Record<string, number>> {
  const now = Date.now();
  const statuses = ['success', 'success', 'success', 'failed', 'success', 'success', 'pending', 'success', 'success', 'refunded', 'success', 'success'];
  const rows = statuses.map((status, i) => ({
    id: `019a0000-0000-7000-8000-0000000f${String(i + 1).padStart(4, '0')}`,
    merchant_id: DEMO.merchantId,
    outlet_id: DEMO.outlets[i % 2].id,
    transaction_code: `TRX-DEMO-${String(i + 1).padStart(4, '0')}`,
    status,
    gross_amount: 15_000 + i * 7_500,
    transaction_at: new Date(now - i * 7 * HOUR),
    created_at: new Date(now - i * 7 * HOUR),
  }));
  const inserted = await em.getKnex()('transaction.transactions').insert(rows).onConflict('id').ignore().returning('id');
  return { transactions: inserted.length };
}
