import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO } from '../../../../lib/demo/demo-ids';

export async function seedOutletDemo(em: EntityManager): Promise<Record<string, number>> {
  const now = new Date();
  const rows = DEMO.outlets.map((o) => ({
    id: o.id,
    merchant_id: DEMO.merchantId,
    code: o.code,
    name: o.name,
    nmid: o.nmid,
    is_default: o.isDefault,
    created_at: now,
    updated_at: now,
  }));
  const inserted = await em.getKnex()('outlet.outlets').insert(rows).onConflict('id').ignore().returning('id');
  return { outlets: inserted.length };
}
