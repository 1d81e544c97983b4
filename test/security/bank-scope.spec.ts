import { createHmac, randomUUID } from 'node:crypto';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import type { Principal } from '@lib/auth/principal';
import type { FixedOperationDocument } from '@lib/rest/operation';
import {
  PspMerchantByNmidDocument,
  PspMerchantByNmidViewDocument,
  PspMerchantDetailDocument,
  PspMerchantListDocument,
  PspMerchantSearchByNmidDocument,
  PspMerchantSearchDocument,
  PspMerchantsByNmidDocument,
  PspMerchantsByNmidViewDocument,
  PspRecordPaymentEventsFromCopyDocument,
  PspResolveNmidsDocument,
  PspResolveNmidsViewDocument,
} from '@rest-adapters/generated/operations';
import { createBank, onboardMerchant } from '@scripts/database-tasks';
import { eventually } from '../support/eventually';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

interface Key {
  keyId: string;
  secret: string;
}

/**
 * A bank's data stays the bank's even when the adapter asks wrongly (DESIGN.md §4, docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md):
 * the PSP adapter's own fixed operations, run through REST's executor with a principal and variables that do not
 * match (bank A's principal with bank B's NMID, a micro-batch of A and B whose items are paired wrongly, an NMID of
 * bank A on a merchant of bank B), answer nothing of the other bank. And the REST paths still answer every bank its
 * own in a shared batch, also for a merchant that is not in the subgraphs' copies yet.
 */
describe('bank scope in the subgraphs: an adapter asking wrongly gets nothing of another bank', () => {
  let stack: TestStack;
  let bankA: BankPrincipal;
  let bankB: BankPrincipal;
  let both: Principal;
  const keys: Record<'lookupA' | 'lookupB' | 'eventA' | 'eventB', Key> = {} as never;
  const nmid = { a: 'ID1026113010000', b: 'ID1026113020000', mixed: 'ID1026113020001', uncopied: 'ID1026113020002' };
  const merchant = { a: '', b: '', mixed: '', uncopied: '' };
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    adminQuery(stack.database.adminUrl, text, params) as Promise<T[]>;
  const run = <R, V>(operation: FixedOperationDocument<R, V>, variables: V, acting: Principal) =>
    stack.execute(operation, variables, { requestId: randomUUID(), acting });
  const lookupVars = { includeOutlets: true, includeOwners: true };

  beforeAll(async () => {
    stack = await startTestStack({ BANK_BATCH_IN_FLIGHT: '1' }, { onlyIn: 'rest' });
    const url = stack.database.adminUrl;
    const a = await createBank(stack.config, url, { code: 'BANKA', name: 'Bank A', tier: 'external' });
    const b = await createBank(stack.config, url, { code: 'BANKB', name: 'Bank B', tier: 'external' });
    bankA = { kind: 'bank', bankId: a.bank_id, bankCode: 'BANKA', tier: 2 };
    bankB = { kind: 'bank', bankId: b.bank_id, bankCode: 'BANKB', tier: 2 };
    both = { kind: 'banks', banks: [bankA, bankB] };
    Object.assign(keys, {
      lookupA: { keyId: a.lookup_key_id, secret: a.lookup_secret },
      lookupB: { keyId: b.lookup_key_id, secret: b.lookup_secret },
      eventA: { keyId: a.event_key_id, secret: a.event_secret },
      eventB: { keyId: b.event_key_id, secret: b.event_secret },
    });
    const onboard = async (name: string, bankCode: string, nmids: string[]) =>
      (await onboardMerchant(stack.config, url, { name, bankCode, nmids, outlets: 1, categoryCode: '5411' })).merchant_id;
    merchant.a = await onboard('Toko A', 'BANKA', [nmid.a]);
    merchant.b = await onboard('Toko B', 'BANKB', [nmid.b]);
    merchant.mixed = await onboard('Toko B Campur', 'BANKB', [nmid.mixed]);
    merchant.uncopied = await onboard('Toko B Baru', 'BANKB', [nmid.uncopied]);
    await sql(`update merchant.merchants set phone = '+6281333333333' where id = $1`, [merchant.b]);
    // Bank B's merchant with an NMID that says bank A issued it: only operator tooling can make this.
    await sql(`update outlet.outlets set nmid_bank_code = 'BANKA' where nmid = $1`, [nmid.mixed]);
    // Both copies hold every merchant (and the mixed NMID as bank A's) before the one merchant is taken out of them,
    // as if its jobs had not run yet.
    const ids = Object.values(merchant);
    await eventually('the copies did not follow', async () => {
      const [{ profiles, targets, mixed }] = await sql<{ profiles: number; targets: number; mixed: number }>(
        `select (select count(*)::int from outlet.merchant_profiles where merchant_id = any($1::uuid[])) as profiles,
                (select count(*)::int from "transaction".payment_targets where merchant_id = any($1::uuid[])) as targets,
                (select count(*)::int from "transaction".payment_targets where nmid = $2 and nmid_bank_code = 'BANKA') as mixed`,
        [ids, nmid.mixed],
      );
      return profiles === 4 && targets === 4 && mixed === 1 ? true : undefined;
    });
    await sql(`delete from outlet.merchant_profiles where merchant_id = $1`, [merchant.uncopied]);
    await sql(`delete from "transaction".payment_targets where merchant_id = $1`, [merchant.uncopied]);
    await sql(`delete from "transaction".payment_target_merchants where merchant_id = $1`, [merchant.uncopied]);
  });
  afterAll(() => stack?.close());

  it('the copy (pspOutletsByNmid) answers a micro-batch item with a merchant of the bank it names, or nothing', async () => {
    const requests = [
      { bankCode: 'BANKA', nmid: nmid.a },
      { bankCode: 'BANKB', nmid: nmid.b },
      { bankCode: 'BANKA', nmid: nmid.b }, // B's NMID under A's code
      { bankCode: 'BANKB', nmid: nmid.a }, // A's NMID under B's code
      { bankCode: 'BANKA', nmid: nmid.mixed }, // A's NMID, B's merchant
      { bankCode: 'BANKB', nmid: nmid.mixed },
    ];
    const { pspOutletsByNmid } = await run(PspMerchantsByNmidViewDocument, { requests, ...lookupVars }, both);
    expect(pspOutletsByNmid.map((outlet) => outlet?.merchant.id ?? null)).toEqual([merchant.a, merchant.b, null, null, null, null]);
    expect(pspOutletsByNmid.map((outlet) => outlet?.merchant.bankCode ?? null)).toEqual(['BANKA', 'BANKB', null, null, null, null]);
    // A bank outside the principal is refused, whatever the item.
    await expect(
      run(PspMerchantsByNmidViewDocument, { requests: [{ bankCode: 'BANKB', nmid: nmid.b }], ...lookupVars }, bankA),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('the owners’ read (outletsByNmid) takes one bank only and answers nothing of another bank', async () => {
    await expect(
      run(PspMerchantsByNmidDocument, { requests: [{ bankCode: 'BANKA', nmid: nmid.a }], ...lookupVars }, both),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      run(PspMerchantsByNmidDocument, { requests: [{ bankCode: 'BANKB', nmid: nmid.b }], ...lookupVars }, bankA),
    ).rejects.toMatchObject({ status: 403 });
    const asA = await run(
      PspMerchantsByNmidDocument,
      { requests: [nmid.a, nmid.b, nmid.mixed, nmid.uncopied].map((n) => ({ bankCode: 'BANKA', nmid: n })), ...lookupVars },
      bankA,
    );
    expect(asA.outletsByNmid.map((outlet) => outlet?.merchant.id ?? null)).toEqual([merchant.a, null, null, null]);
    // The merchant not in the copy is answered by its owners to its own bank.
    const asB = await run(PspMerchantsByNmidDocument, { requests: [{ bankCode: 'BANKB', nmid: nmid.uncopied }], ...lookupVars }, bankB);
    expect(asB.outletsByNmid.map((outlet) => outlet?.merchant.id ?? null)).toEqual([merchant.uncopied]);
  });

  it('a lookup alone (copy and owners) as bank A answers nothing for B’s NMID or A’s NMID on B’s merchant', async () => {
    for (const n of [nmid.b, nmid.mixed, nmid.uncopied]) {
      expect((await run(PspMerchantByNmidViewDocument, { nmid: n, ...lookupVars }, bankA)).pspOutletByNmid).toBeNull();
      expect((await run(PspMerchantByNmidDocument, { nmid: n, ...lookupVars }, bankA)).outletByNmid).toBeNull();
    }
  });

  it('payment targets: the copy answers wrongly paired items with nothing, the owners’ batch refuses several banks', async () => {
    const requests = [
      { bankCode: 'BANKA', nmid: nmid.b },
      { bankCode: 'BANKA', nmid: nmid.mixed },
      { bankCode: 'BANKB', nmid: nmid.b },
    ];
    const { pspOutletsByNmid } = await run(PspResolveNmidsViewDocument, { requests }, both);
    expect(pspOutletsByNmid.map((outlet) => outlet?.merchant.id ?? null)).toEqual([null, null, merchant.b]);
    await expect(run(PspResolveNmidsDocument, { requests }, both)).rejects.toMatchObject({ status: 403 });
  });

  it('event intake from the copy stores nothing for an item paired with another bank’s NMID or merchant', async () => {
    const event = (id: string, bankCode: string, n: string) => ({
      externalEventId: id,
      eventType: 'transaction.success',
      payload: {},
      nmid: n,
      bankCode,
      transactionCode: `TRX-${id}`,
      transactionAt: new Date().toISOString(),
      grossAmount: 10_000,
    });
    const ids = [`scope-${randomUUID()}`, `scope-${randomUUID()}`];
    const { recordPaymentEventsFromCopy } = await run(
      PspRecordPaymentEventsFromCopyDocument,
      { inputs: [event(ids[0], 'BANKA', nmid.b), event(ids[1], 'BANKA', nmid.mixed)] },
      both,
    );
    expect(recordPaymentEventsFromCopy).toEqual([
      { result: null, inputError: null, unresolved: true },
      { result: null, inputError: null, unresolved: true },
    ]);
    expect(await sql(`select id from "transaction".payment_events where external_event_id = any($1)`, [ids])).toEqual([]);
  });

  it('detail, list and search as bank A answer nothing of bank B, whatever the variables', async () => {
    for (const id of [merchant.b, merchant.mixed]) {
      expect((await run(PspMerchantDetailDocument, { id, ...lookupVars }, bankA)).merchant).toBeNull();
    }
    const list = await run(
      PspMerchantListDocument,
      { first: 500, after: null, updatedSince: null, categoryCode: null, includeOutlets: true },
      bankA,
    );
    expect(list.bankMerchants.items.map((m) => m.id)).toEqual([merchant.a]);
    const search = await run(PspMerchantSearchDocument, { phone: '+6281333333333', email: null, npwp: null }, bankA);
    expect(search.bankMerchantSearch).toEqual([]);
    expect((await run(PspMerchantSearchByNmidDocument, { nmid: nmid.mixed }, bankA)).outletByNmid).toBeNull();
    // None of these takes a micro-batch principal.
    await expect(run(PspMerchantDetailDocument, { id: merchant.b, ...lookupVars }, both)).rejects.toMatchObject({ status: 403 });
  });

  describe('through REST, in batches shared by both banks', () => {
    const lookUp = (key: Key, target: string) => {
      const timestamp = new Date().toISOString();
      const signature = createHmac('sha256', key.secret).update(`GET\n${target}\n${timestamp}\n`).digest('hex');
      return stack.rest.inject({
        method: 'GET',
        url: target,
        headers: { 'x-api-key-id': key.keyId, 'x-timestamp': timestamp, 'x-signature': signature },
      });
    };
    const postEvent = (key: Key, body: Record<string, unknown>) => {
      const raw = JSON.stringify(body);
      const timestamp = new Date(Date.now() + 7 * 3600_000).toISOString().replace('Z', '+07:00');
      const signature = createHmac('sha256', key.secret).update(`POST\n/psp/v1/events\n${timestamp}\n${raw}`).digest('hex');
      return stack.rest.inject({
        method: 'POST',
        url: '/psp/v1/events',
        payload: raw,
        headers: {
          'content-type': 'application/json',
          'x-psp-key-id': key.keyId,
          'x-psp-timestamp': timestamp,
          'x-psp-signature': signature,
        },
      });
    };

    it('answers each bank’s lookups with its own merchants only, a merchant not copied yet included', async () => {
      const asks = [
        { key: keys.lookupA, nmid: nmid.a, merchantId: merchant.a },
        { key: keys.lookupA, nmid: nmid.b, merchantId: null },
        { key: keys.lookupA, nmid: nmid.mixed, merchantId: null },
        { key: keys.lookupA, nmid: nmid.uncopied, merchantId: null },
        { key: keys.lookupB, nmid: nmid.b, merchantId: merchant.b },
        { key: keys.lookupB, nmid: nmid.uncopied, merchantId: merchant.uncopied },
        { key: keys.lookupB, nmid: nmid.mixed, merchantId: null },
        { key: keys.lookupB, nmid: nmid.a, merchantId: null },
      ];
      // Each query string is its own cache entry: every round is a miss, and the rounds go together.
      const rounds = ['include_outlets=true', 'include_owners=true', 'include_outlets=true&include_owners=true', 'include_outlets=false'];
      const sent = rounds.flatMap((query) => asks.map((ask) => ({ ...ask, target: `/api/psp/v1/merchants/by-nmid/${ask.nmid}?${query}` })));
      const answers = await Promise.all(sent.map(({ key, target }) => lookUp(key, target)));
      expect(answers.map((answer) => [answer.statusCode, answer.statusCode === 200 ? answer.json().merchant.id : null])).toEqual(
        sent.map(({ merchantId }) => (merchantId ? [200, merchantId] : [404, null])),
      );
    });

    it('applies each bank’s events to its own merchants only, a merchant not copied yet included', async () => {
      const event = (n: string) => {
        const id = `scope-${randomUUID()}`;
        return {
          external_event_id: id,
          event_type: 'transaction.success',
          nmid: n,
          gross_amount: 25_000,
          transaction_code: `TRX-${id}`,
          transaction_at: new Date(Date.now() + 7 * 3600_000).toISOString().replace('Z', '+07:00'),
          status: 'success',
        };
      };
      const sends = Array.from({ length: 4 }, () => [
        { key: keys.eventA, nmid: nmid.a, merchantId: merchant.a },
        { key: keys.eventA, nmid: nmid.b, merchantId: null },
        { key: keys.eventA, nmid: nmid.mixed, merchantId: null },
        { key: keys.eventB, nmid: nmid.uncopied, merchantId: merchant.uncopied },
        { key: keys.eventB, nmid: nmid.b, merchantId: merchant.b },
        { key: keys.eventB, nmid: nmid.a, merchantId: null },
      ]).flat();
      const answers = await Promise.all(sends.map(({ key, nmid: n }) => postEvent(key, event(n))));
      expect(answers.map((answer) => [answer.statusCode, answer.json().merchant_id, answer.json().code ?? null])).toEqual(
        sends.map(({ merchantId }) => (merchantId ? [200, merchantId, null] : [422, null, 'unknown_nmid'])),
      );
    });
  });
});
