import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO } from '@lib/domain/demo/demo-ids';

export async function seedCatalogDemo(em: EntityManager): Promise<Record<string, number>> {
  const now = new Date();
  const rows = [
    ['Kopi', 'coffee'],
    ['Minuman Dingin', 'local_drink'],
    ['Makanan Ringan', 'cookie'],
  ].map(([name, icon], i) => ({
    id: `019a0000-0000-7000-8000-0000000c000${i + 1}`,
    merchant_id: DEMO.merchantId,
    name,
    icon_name: icon,
    sort_order: i + 1,
    is_active: true,
    created_at: now,
    updated_at: now,
  }));
  const inserted = await em.getKnex()('catalog.categories').insert(rows).onConflict('id').ignore().returning('id');
  return { categories: inserted.length };
}
