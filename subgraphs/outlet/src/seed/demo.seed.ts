import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { DEFAULT_TERMINAL_MODEL } from '../modules/terminal/terminal.entity';

/** What this subgraph adds to each demo outlet (by its index in DEMO.outlets): MID, address, one terminal. */
export const DEMO_OUTLET_DETAILS = [
  {
    mid: 'MDEMO0001',
    addressLine: 'Jl. Kebon Sirih No. 10',
    postalCode: '10340',
    phone: '+622131900001',
    terminal: { id: '019a0000-0000-7000-8000-0000000a0001', tid: 'TDEMO0001', serialNumber: 'SBX1-DEMO-0001' },
  },
  {
    mid: 'MDEMO0002',
    addressLine: 'Jl. HOS Cokroaminoto No. 21',
    postalCode: '10310',
    phone: '+622131900002',
    terminal: { id: '019a0000-0000-7000-8000-0000000a0002', tid: 'TDEMO0002', serialNumber: 'SBX1-DEMO-0002' },
  },
] as const;

/**
 * Idempotent: outlets are inserted, or, when they exist from before the NMID columns (no issuing bank yet),
 * completed without overwriting what is set; terminals are inserted once.
 */
export async function seedOutletDemo(em: EntityManager): Promise<Record<string, number>> {
  const knex = em.getKnex();
  const now = new Date();
  const outlets = DEMO.outlets.map((o, i) => ({
    id: o.id,
    merchant_id: DEMO.merchantId,
    code: o.code,
    name: o.name,
    nmid: o.nmid,
    nmid_status: 'active',
    nmid_bank_code: DEMO.bank.code,
    nmid_assigned_at: now,
    mid: DEMO_OUTLET_DETAILS[i].mid,
    address_line: DEMO_OUTLET_DETAILS[i].addressLine,
    city: 'Jakarta Pusat',
    province: 'DKI Jakarta',
    postal_code: DEMO_OUTLET_DETAILS[i].postalCode,
    phone: DEMO_OUTLET_DETAILS[i].phone,
    is_default: o.isDefault,
    created_at: now,
    updated_at: now,
  }));
  const completed = ['nmid_bank_code', 'nmid_assigned_at', 'mid', 'address_line', 'city', 'province', 'postal_code', 'phone'];
  const writtenOutlets = await knex('outlet.outlets')
    .insert(outlets)
    .onConflict('id')
    .merge(Object.fromEntries(completed.map((column) => [column, knex.raw(`coalesce(outlets.${column}, excluded.${column})`)])))
    .where('outlets.nmid_bank_code', null)
    .returning('id');

  const terminals = DEMO.outlets.map((o, i) => ({
    id: DEMO_OUTLET_DETAILS[i].terminal.id,
    merchant_id: DEMO.merchantId,
    outlet_id: o.id,
    tid: DEMO_OUTLET_DETAILS[i].terminal.tid,
    serial_number: DEMO_OUTLET_DETAILS[i].terminal.serialNumber,
    model: DEFAULT_TERMINAL_MODEL,
    firmware_version: '1.4.2',
    status: 'online',
    last_seen_at: now,
    created_at: now,
    updated_at: now,
  }));
  const writtenTerminals = await knex('outlet.terminals').insert(terminals).onConflict().ignore().returning('id');

  const others = DEMO.otherMerchants.flatMap((m) => m.outlets.map((o, i) => ({ merchant: m, outlet: o, isDefault: i === 0 })));
  const otherOutlets = await knex('outlet.outlets')
    .insert(
      others.map(({ merchant, outlet, isDefault }) => ({
        id: outlet.id,
        merchant_id: merchant.id,
        code: outlet.code,
        name: outlet.name,
        nmid: outlet.nmid,
        nmid_status: 'active',
        nmid_bank_code: DEMO.bank.code,
        nmid_assigned_at: now,
        city: 'Jakarta Pusat',
        province: 'DKI Jakarta',
        is_default: isDefault,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict('id')
    .ignore()
    .returning('id');
  const otherTerminals = await knex('outlet.terminals')
    .insert(
      others.map(({ merchant, outlet }, i) => ({
        id: `019a0000-0000-7000-8000-0000000a01${String(i).padStart(2, '0')}`,
        merchant_id: merchant.id,
        outlet_id: outlet.id,
        tid: outlet.tid,
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
  return { outlets: writtenOutlets.length + otherOutlets.length, terminals: writtenTerminals.length + otherTerminals.length };
}

/**
 * The payment-terminal view of the demo merchant (GET /merchant/payment-terminal): device details of its
 * terminals, two PSP pairings and one deleted one (never shown), and a few activity entries. Idempotent.
 */
export async function seedDeviceDemo(em: EntityManager): Promise<Record<string, number>> {
  const knex = em.getKnex();
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
  for (const [i, detail] of DEMO_OUTLET_DETAILS.entries()) {
    await knex('outlet.terminals')
      .where({ id: detail.terminal.id })
      .whereNull('brand_name')
      .update({ brand_name: 'Sunmi', device_type_name: 'Soundbox', placement_name: i === 0 ? 'Kasir depan' : 'Kasir cabang' });
  }
  const terminalId = DEMO_OUTLET_DETAILS[0].terminal.id;
  const pairing = (n: number, psp: [string, string], card: [string, string], deletedAt: Date | null) => ({
    id: `019a0000-0000-7000-8000-0000000b000${n}`,
    merchant_id: DEMO.merchantId,
    terminal_id: terminalId,
    psp_code: psp[0],
    psp_name: psp[1],
    kode_kartu: card[0],
    nama_kartu: card[1],
    psp_mid: `MID-${psp[0]}-01`,
    psp_tid: `TID-${psp[0]}-01`,
    pairing_status: 'active',
    created_at: at(60 * 24 * (10 - n)),
    updated_at: at(60 * 24 * (10 - n)),
    deleted_at: deletedAt,
  });
  const pairings = await knex('outlet.psp_pairings')
    .insert([
      pairing(1, ['BDEMO', 'Bank Demo'], ['QRIS', 'QRIS Bank Demo'], null),
      pairing(2, ['QRISLINK', 'QRIS Link'], ['QRIS', 'QRIS Interkoneksi'], null),
      pairing(3, ['OLDPSP', 'PSP Lama'], ['DEBIT', 'Kartu Debit'], at(60 * 24)),
    ])
    .onConflict('id')
    .ignore()
    .returning('id');
  const logs = [
    ['device.paired', 'Perangkat dipasangkan dengan Bank Demo', 'info', 60 * 24 * 9],
    ['firmware.updated', 'Firmware diperbarui ke 1.4.2', 'info', 60 * 24 * 3],
    ['device.offline', 'Perangkat offline lebih dari 30 menit', 'warning', 60 * 5],
    ['device.online', 'Perangkat kembali online', 'info', 60 * 4],
  ].map(([type, title, severity, minutesAgo], n) => ({
    id: `019a0000-0000-7000-8000-0000000c000${n + 1}`,
    merchant_id: DEMO.merchantId,
    terminal_id: terminalId,
    event_type: type,
    event_title: title,
    severity,
    occurred_at: at(minutesAgo as number),
    created_at: at(minutesAgo as number),
  }));
  const written = await knex('outlet.device_activity_logs').insert(logs).onConflict('id').ignore().returning('id');
  return { pspPairings: pairings.length, activityLogs: written.length };
}
