import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO } from '../../../../lib/demo/demo-ids';

export async function seedMerchantDemo(em: EntityManager): Promise<Record<string, number>> {
  const now = new Date();
  const inserted = await em
    .getKnex()('merchant.merchants')
    .insert({ id: DEMO.merchantId, merchant_code: DEMO.merchantCode, name: 'Warung Kopi Demo', status: 'active', created_at: now, updated_at: now })
    .onConflict('id')
    .ignore()
    .returning('id');
  return { merchants: inserted.length };
}
