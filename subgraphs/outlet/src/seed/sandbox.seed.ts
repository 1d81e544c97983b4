import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { DEFAULT_TERMINAL_MODEL } from '../modules/terminal/terminal.entity';

/**
 * The demo sandbox merchant's outlets (docs/decisions/0015-demo-data-and-sandbox.md, DEMO.sandbox): sandbox NMIDs issued by the
 * sandbox bank, one terminal each. Idempotent.
 */
export async function seedOutletSandbox(em: EntityManager): Promise<Record<string, number>> {
  const knex = em.getKnex();
  const now = new Date();
  const { outlets, merchantId, bank } = DEMO.sandbox;
  const written = await knex('outlet.outlets')
    .insert(
      outlets.map((o) => ({
        id: o.id,
        merchant_id: merchantId,
        code: o.code,
        name: o.name,
        nmid: o.nmid,
        nmid_status: 'active',
        nmid_bank_code: bank.code,
        nmid_assigned_at: now,
        city: 'Jakarta Pusat',
        province: 'DKI Jakarta',
        is_default: o.isDefault,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict('id')
    .ignore()
    .returning('id');
  const terminals = await knex('outlet.terminals')
    .insert(
      outlets.map((o) => ({
        id: o.terminalId,
        merchant_id: merchantId,
        outlet_id: o.id,
        tid: o.tid,
        model: DEFAULT_TERMINAL_MODEL,
        status: 'online',
        last_seen_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict()
    .ignore()
    .returning('id');
  return { sandbox_outlets: written.length, sandbox_terminals: terminals.length };
}
