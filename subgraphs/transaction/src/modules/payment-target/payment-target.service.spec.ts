import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';
import { MdrRepository } from '../mdr/mdr.repository';
import { PaymentTargetService } from './payment-target.service';

const BANK: BankPrincipal = { kind: 'bank', bankId: uuidv7(), bankCode: 'BTGT', tier: 2 };

/** The copy of payment targets as the owners' jobs keep it: any order, retries, NMIDs that move (real PostgreSQL). */
describe('PaymentTargetService (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  let nmidSeq = 0;
  const service = () => new PaymentTargetService(orm.em.fork() as EntityManager);
  const nextNmid = () => `ID10261204${String((nmidSeq += 1)).padStart(5, '0')}`;

  const merchant = (id: string, version: number, over: Record<string, unknown> = {}) => ({
    merchant_id: id,
    version,
    bank_id: BANK.bankId,
    bank_code: BANK.bankCode,
    psp_visible_at: '2026-11-01T00:00:00Z',
    status: 'active',
    category_code: '5812',
    // The job carries the whole bank view; the copy keeps what resolution needs.
    name: 'Warung',
    phone: '+6281200000000',
    ...over,
  });
  const outletSet = (
    id: string,
    version: number,
    outlets: { nmid: string; outletId?: string; tids?: Record<string, string> }[],
    live = outlets.length,
  ) => ({
    merchant_id: id,
    version,
    live_outlets: live,
    outlets: outlets.map(({ nmid, outletId = uuidv7(), tids = {} }) => ({
      nmid,
      outlet_id: outletId,
      mid: `MID-${nmid.slice(-5)}`,
      nmid_status: 'active',
      nmid_bank_code: BANK.bankCode,
      terminals: tids,
    })),
  });
  const resolve = async (nmid: string, over: { bank?: BankPrincipal; mid?: string; tid?: string } = {}) =>
    (await service().fromCopy([{ bank: over.bank ?? BANK, nmid, mid: over.mid, tid: over.tid }]))[0]?.target;

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(transactionSubgraph, loadConfig({ DATABASE_URL: database.adminUrl }));
  });
  afterAll(async () => {
    await orm?.close(true);
    await database?.drop();
  });

  it('resolves an NMID as the owners would, and leaves to them whatever it cannot say', async () => {
    const id = uuidv7();
    const [a, b] = [nextNmid(), nextNmid()];
    const outletId = uuidv7();
    const terminalId = uuidv7();
    await service().applyMerchants({ profiles: [merchant(id, 1)] });
    await service().applyOutletSets({ targets: [outletSet(id, 1, [{ nmid: a, outletId, tids: { T1: terminalId } }, { nmid: b }], 3)] });

    expect(await resolve(a, { tid: 'T1', mid: `MID-${a.slice(-5)}` })).toEqual({
      merchantId: id,
      merchantStatus: 'active',
      categoryCode: '5812',
      outletId,
      multiOutlet: true,
      terminalId,
      nmidStatus: 'active',
    });
    expect(await resolve(a)).toMatchObject({ terminalId: null });
    // With what a success's MDR is chosen from: the merchant's criteria and its MCC's policy, as the MDR policy reads them.
    const [resolution] = await service().fromCopy([{ bank: BANK, nmid: a }]);
    expect(resolution?.mdr).toEqual(
      (await new MdrRepository(orm.em.fork()).ofMerchants([{ merchantId: id, categoryCode: '5812' }])).get(id),
    );
    // Unknown here, another bank's, a MID or TID the copy does not know: the owners decide.
    expect(await resolve(nextNmid())).toBeUndefined();
    expect(await resolve(a, { bank: { ...BANK, bankCode: 'BOTHER', bankId: uuidv7() } })).toBeUndefined();
    expect(await resolve(a, { mid: 'MID-OTHER' })).toBeUndefined();
    expect(await resolve(a, { tid: 'T9' })).toBeUndefined();
    // Not activated for its bank yet: only the tier-1 PSP sees it.
    await service().applyMerchants({ profiles: [merchant(id, 2, { psp_visible_at: null })] });
    expect(await resolve(a)).toBeUndefined();
    expect(await resolve(a, { bank: { ...BANK, tier: 1 } })).toMatchObject({ merchantId: id });
  });

  it('keeps the highest version of each part, whatever order the jobs run in', async () => {
    const id = uuidv7();
    const [a, b] = [nextNmid(), nextNmid()];
    await service().applyMerchants({ profiles: [merchant(id, 10, { status: 'suspended' })] });
    expect(await service().applyMerchants({ profiles: [merchant(id, 9)] })).toBe(0);
    await service().applyOutletSets({ targets: [outletSet(id, 20, [{ nmid: b }])] });
    // An older set that still had `a` (and not yet `b`'s change) arrives late: ignored, `a` does not come back.
    expect(await service().applyOutletSets({ targets: [outletSet(id, 19, [{ nmid: a }, { nmid: b, tids: { OLD: uuidv7() } }])] })).toBe(0);
    expect(await resolve(a)).toBeUndefined();
    expect(await resolve(b)).toMatchObject({ merchantId: id, merchantStatus: 'suspended', multiOutlet: false });
    expect(await resolve(b, { tid: 'OLD' })).toBeUndefined();
    // A retried job changes nothing.
    expect(await service().applyOutletSets({ targets: [outletSet(id, 20, [{ nmid: b }])] })).toBe(0);
  });

  it('lets a newer set keep an NMID that moved to another merchant, whichever job runs last', async () => {
    const [from, to] = [uuidv7(), uuidv7()];
    const nmid = nextNmid();
    await service().applyMerchants({ profiles: [merchant(from, 1), merchant(to, 1)] });
    await service().applyOutletSets({ targets: [outletSet(from, 30, [{ nmid }])] });
    // The NMID left `from` (version 31) and went to `to` (32); `to`'s job runs first, then both of `from`'s, in reverse.
    await service().applyOutletSets({ targets: [outletSet(to, 32, [{ nmid }])] });
    await service().applyOutletSets({ targets: [outletSet(from, 31, [])] });
    expect(await resolve(nmid)).toMatchObject({ merchantId: to });

    const other = nextNmid();
    await service().applyOutletSets({ targets: [outletSet(from, 33, [{ nmid: other }])] });
    await service().applyOutletSets({ targets: [outletSet(to, 34, [])] });
    // A set of `to` older than its last one: ignored.
    await service().applyOutletSets({ targets: [outletSet(to, 33, [{ nmid: other }])] });
    expect(await resolve(other)).toMatchObject({ merchantId: from });
  });

  it('applies concurrent jobs of one merchant one after the other: the highest version stays', async () => {
    const id = uuidv7();
    await service().applyMerchants({ profiles: [merchant(id, 1)] });
    const nmids = Array.from({ length: 8 }, () => nextNmid());
    // Version k holds the first k NMIDs; all eight jobs at once, in shuffled order.
    const jobs = nmids.map((_, k) =>
      outletSet(
        id,
        100 + k,
        nmids.slice(0, k + 1).map((nmid) => ({ nmid })),
      ),
    );
    await Promise.all([3, 7, 0, 5, 1, 6, 2, 4].map((k) => service().applyOutletSets({ targets: [jobs[k]] })));
    const resolved = await service().fromCopy(nmids.map((nmid) => ({ bank: BANK, nmid })));
    expect(resolved.map((resolution) => resolution?.target.merchantId)).toEqual(nmids.map(() => id));
    expect(resolved.filter((resolution) => !resolution?.target.multiOutlet)).toEqual([]);
  });
});
