import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { outletSubgraph } from '@subgraphs/outlet/src/app';
import { seedOutletDemo } from '@subgraphs/outlet/src/seed/demo.seed';
import { TerminalService } from '../terminal/terminal.service';
import { OutletService } from './outlet.service';

describe('OutletService and TerminalService (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  const fork = () => orm.em.fork() as EntityManager;
  const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await orm.em.getKnex().raw(text, params as never[])).rows as T[];
  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: { message: string; extensions?: Record<string, unknown> }) => ({ message: error.message, ...error.extensions }),
    );

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(outletSubgraph, loadConfig({ DATABASE_URL: database.adminUrl }));
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });

  describe('demo seed', () => {
    it('gave both outlets of the first demo merchant the demo bank, a MID, a Jakarta Pusat address and one online terminal', async () => {
      // The demo sandbox merchant's two outlets aside (docs/decisions/0015-demo-data-and-sandbox.md).
      expect(await sql('select count(*)::int as n from outlet.outlets where merchant_id <> ?', [DEMO.sandbox.merchantId])).toEqual([
        { n: 6 },
      ]);
      expect(
        await sql('select code, nmid_bank_code, mid, city, province from outlet.outlets where merchant_id = ? order by code', [
          DEMO.merchantId,
        ]),
      ).toEqual([
        { code: 'MENTENG', nmid_bank_code: 'BDEMO', mid: 'MDEMO0002', city: 'Jakarta Pusat', province: 'DKI Jakarta' },
        { code: 'PUSAT', nmid_bank_code: 'BDEMO', mid: 'MDEMO0001', city: 'Jakarta Pusat', province: 'DKI Jakarta' },
      ]);
      expect(
        await sql('select id, tid, model, status from outlet.terminals where merchant_id = ? order by tid', [DEMO.merchantId]),
      ).toEqual([
        { id: '019a0000-0000-7000-8000-0000000a0001', tid: 'TDEMO0001', model: 'QRIS Soundbox S1', status: 'online' },
        { id: '019a0000-0000-7000-8000-0000000a0002', tid: 'TDEMO0002', model: 'QRIS Soundbox S1', status: 'online' },
      ]);
    });

    it('is idempotent, and completes outlets seeded before the NMID columns without overwriting them', async () => {
      expect(await seedOutletDemo(fork())).toEqual({ outlets: 0, terminals: 0 });
      await sql(`update outlet.outlets set nmid_bank_code = null, mid = null, city = null, name = 'Renamed' where code = 'MENTENG'`);
      // every demo outlet and terminal exists already: only the emptied one is completed
      expect(await seedOutletDemo(fork())).toEqual({ outlets: 1, terminals: 0 });
      expect(await sql(`select name, nmid_bank_code, mid, city from outlet.outlets where code = 'MENTENG'`)).toEqual([
        { name: 'Renamed', nmid_bank_code: 'BDEMO', mid: 'MDEMO0002', city: 'Jakarta Pusat' },
      ]);
      await sql(`update outlet.outlets set name = ? where code = 'MENTENG'`, [DEMO.outlets[1].name]);
    });
  });

  describe('the tables', () => {
    it('refuse an NMID that is not "ID" and 10 to 15 digits, and an unknown NMID status', async () => {
      await expect(sql(`update outlet.outlets set nmid = 'ID123' where code = 'PUSAT'`)).rejects.toMatchObject({
        code: '23514',
        constraint: 'outlets_nmid_format_check',
      });
      await expect(sql(`update outlet.outlets set nmid_status = 'blocked' where code = 'PUSAT'`)).rejects.toMatchObject({ code: '23514' });
    });

    it("refuse a terminal whose merchant is not its outlet's merchant", async () => {
      await expect(
        sql(
          `insert into outlet.terminals (id, merchant_id, outlet_id, status, created_at, updated_at) values (?, ?, ?, 'online', now(), now())`,
          [uuidv7(), uuidv7(), DEMO.outlets[0].id],
        ),
      ).rejects.toMatchObject({ code: '23503' });
    });
  });

  describe('createForMerchant', () => {
    it('creates outlets in one go, with a terminal only where asked', async () => {
      const merchantId = uuidv7();
      const created = await new OutletService(fork()).createForMerchant(merchantId, [
        {
          code: 'UTAMA',
          name: 'Toko Utama',
          nmid: 'ID2026112200101',
          bankCode: 'BDEMO',
          mid: 'M101',
          isDefault: true,
          withTerminal: true,
          tid: 'T101',
          city: 'Bandung',
          postalCode: '40111',
          phone: '+62227001001',
        },
        { code: 'CABANG', name: 'Toko Cabang' },
      ]);
      expect(created).toEqual([
        { id: expect.any(String), code: 'UTAMA', nmid: 'ID2026112200101' },
        { id: expect.any(String), code: 'CABANG', nmid: null },
      ]);
      const [utama] = await sql<Record<string, unknown>>('select * from outlet.outlets where id = ?', [created[0].id]);
      expect(utama).toMatchObject({
        merchant_id: merchantId,
        nmid_bank_code: 'BDEMO',
        nmid_status: 'active',
        mid: 'M101',
        is_default: true,
        city: 'Bandung',
      });
      expect(utama.nmid_assigned_at).not.toBeNull();
      expect(
        await sql('select outlet_id, merchant_id, tid, model, status from outlet.terminals where merchant_id = ?', [merchantId]),
      ).toEqual([{ outlet_id: created[0].id, merchant_id: merchantId, tid: 'T101', model: 'QRIS Soundbox S1', status: 'online' }]);
    });

    it('refuses bad input before writing anything', async () => {
      const merchantId = uuidv7();
      const service = new OutletService(fork());
      const cases: [Parameters<OutletService['createForMerchant']>[1], string][] = [
        [[{ code: 'A', name: 'A', nmid: 'ID12', bankCode: 'BDEMO' }], 'nmid must be "ID" followed by 10 to 15 digits'],
        [[{ code: 'A', name: 'A', nmid: 'ID2026112200201' }], 'outlet A: bankCode is required with an nmid'],
        [[{ code: 'A', name: 'A', nmid: 'ID2026112200201', bankCode: 'bdemo' }], 'bankCode must be 2 to 12 upper-case letters or digits'],
        [
          [
            { code: 'A', name: 'A', isDefault: true },
            { code: 'B', name: 'B', isDefault: true },
          ],
          'at most one outlet can be the default',
        ],
        [
          [
            { code: 'A', name: 'A' },
            { code: 'A', name: 'B' },
          ],
          'each outlet needs its own code',
        ],
        [[{ code: 'A', name: 'A', postalCode: '123' }], 'postalCode must be 5 digits'],
        [[], 'at least one outlet is needed'],
      ];
      for (const [outlets, message] of cases) {
        expect(await errorOf(service.createForMerchant(merchantId, outlets))).toEqual({ message, code: 'BAD_USER_INPUT' });
      }
      expect(await sql('select id from outlet.outlets where merchant_id = ?', [merchantId])).toEqual([]);
    });

    it('maps taken NMIDs, codes, TIDs and a second default to conflicts, and rolls the whole batch back', async () => {
      const cases: [string, Parameters<OutletService['createForMerchant']>[1], string][] = [
        [uuidv7(), [{ code: 'X', name: 'X', nmid: DEMO.outlets[0].nmid, bankCode: 'BDEMO' }], 'nmid_taken'],
        [uuidv7(), [{ code: 'X', name: 'X', mid: 'MDEMO0001' }], 'mid_taken'],
        [DEMO.merchantId, [{ code: 'PUSAT', name: 'Again' }], 'outlet_code_taken'],
        [DEMO.merchantId, [{ code: 'NEWDEFAULT', name: 'Second default', isDefault: true }], 'default_outlet_taken'],
        [uuidv7(), [{ code: 'X', name: 'X', withTerminal: true, tid: 'TDEMO0001' }], 'tid_taken'],
      ];
      for (const [merchantId, outlets, reason] of cases) {
        expect(await errorOf(new OutletService(fork()).createForMerchant(merchantId, outlets))).toMatchObject({ code: 'CONFLICT', reason });
      }
      expect(await sql(`select code from outlet.outlets where code in ('X', 'NEWDEFAULT') or name = 'Again'`)).toEqual([]);
    });
  });

  describe('per-merchant fields, batched', () => {
    const withDefault = uuidv7();
    const withoutDefault = uuidv7();
    const withoutOutlets = uuidv7();
    let statements: string[];
    const record = (query: { sql: string }) => statements.push(query.sql);

    beforeAll(async () => {
      const service = new OutletService(fork());
      // withDefault: an older outlet without NMID, then the default one with an NMID.
      await service.createForMerchant(withDefault, [{ code: 'OLDER', name: 'Older', withTerminal: true, tid: 'T-OLDER' }]);
      await service.createForMerchant(withDefault, [
        { code: 'MAIN', name: 'Main', isDefault: true, nmid: 'ID2026112200301', bankCode: 'BDEMO' },
      ]);
      // withoutDefault: the oldest has no NMID; the next two do; terminals of different ages and states.
      await service.createForMerchant(withoutDefault, [{ code: 'FIRST', name: 'First', withTerminal: true, tid: 'T-FIRST' }]);
      await service.createForMerchant(withoutDefault, [
        { code: 'SECOND', name: 'Second', nmid: 'ID2026112200302', bankCode: 'BDEMO', withTerminal: true, tid: 'T-SECOND' },
      ]);
      await service.createForMerchant(withoutDefault, [
        { code: 'THIRD', name: 'Third', nmid: 'ID2026112200303', bankCode: 'BDEMO', withTerminal: true, tid: 'T-THIRD' },
      ]);
      await sql(`update outlet.terminals set status = 'offline', last_seen_at = now() - interval '1 hour' where tid = 'T-FIRST'`);
      await sql(`update outlet.terminals set status = 'inactive', last_seen_at = now() where tid = 'T-SECOND'`);
      await sql(`update outlet.terminals set status = 'online', last_seen_at = now() - interval '2 hours' where tid = 'T-THIRD'`);
      statements = [];
      orm.em.getKnex().on('query', record);
    });
    afterAll(() => {
      orm.em.getKnex().off('query', record);
    });

    const merchants = [DEMO.merchantId, withDefault, withoutDefault, withoutOutlets];

    it('defaultOutlet: the live default outlet, else the oldest live one, in one statement', async () => {
      statements = [];
      const service = new OutletService(fork());
      const outlets = await Promise.all(merchants.map((id) => service.defaultOfMerchant(id)));
      expect(outlets.map((o) => o?.code ?? null)).toEqual(['PUSAT', 'MAIN', 'FIRST', null]);
      expect(statements).toHaveLength(1);
    });

    it("nmid: the default outlet's, else the oldest live outlet's that has one, in one statement", async () => {
      statements = [];
      const service = new OutletService(fork());
      const nmids = await Promise.all(merchants.map((id) => service.nmidOfMerchant(id)));
      expect(nmids).toEqual([DEMO.outlets[0].nmid, 'ID2026112200301', 'ID2026112200302', null]);
      expect(statements).toHaveLength(1);
    });

    it('terminal: the most recently seen one that is not inactive, in one statement', async () => {
      statements = [];
      const service = new TerminalService(fork());
      const terminals = await Promise.all(merchants.map((id) => service.primaryOfMerchant(id)));
      // The demo terminals were seen at the same instant: the later id wins the tie.
      expect(terminals.map((t) => t?.tid ?? null)).toEqual(['TDEMO0002', 'T-OLDER', 'T-FIRST', null]);
      expect(statements).toHaveLength(1);
    });

    it('ignores soft-deleted outlets and their terminals', async () => {
      await sql(`update outlet.outlets set deleted_at = now() where code in ('MAIN', 'FIRST') and merchant_id in (?, ?)`, [
        withDefault,
        withoutDefault,
      ]);
      const outlets = new OutletService(fork());
      const terminals = new TerminalService(fork());
      expect((await outlets.defaultOfMerchant(withDefault))?.code).toBe('OLDER');
      expect(await outlets.nmidOfMerchant(withDefault)).toBeNull();
      expect(await outlets.findByNmid('ID2026112200301', { kind: 'service', service: 'test' })).toBeNull();
      expect((await terminals.primaryOfMerchant(withDefault))?.tid).toBe('T-OLDER');
      expect((await terminals.primaryOfMerchant(withoutDefault))?.tid).toBe('T-THIRD');
    });
  });
});
