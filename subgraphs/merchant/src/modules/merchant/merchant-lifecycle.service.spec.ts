import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, adminQuery, cloneTemplateDatabase } from '@test/support/test-database';
import { merchantSubgraph } from '@subgraphs/merchant/src/app';
import { secretBoxFor } from '@lib/crypto/secret-box';
import { Bank } from '../bank/bank.entity';
import { BankService } from '../bank/bank.service';
import type { WebhookEnvelope } from '../webhook/webhook.entity';
import { OutboundUrlPolicy } from '../webhook/outbound-url';
import { WebhookService } from '../webhook/webhook.service';
import { MerchantLifecycleService, TRANSITIONS, addMonths } from './merchant-lifecycle.service';
import { MERCHANT_STATUSES, Merchant, type KycStatus, type MerchantStatus } from './merchant.entity';
import { MerchantService, newMerchantCode } from './merchant.service';

interface DeliveryRow {
  id: string;
  event: string;
  status: string;
  attempts: number;
  payload: WebhookEnvelope;
  bank_id: string;
  merchant_id: string;
}

describe('MerchantLifecycleService (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  const config = () => loadConfig({ DATABASE_URL: database.adminUrl });
  const fork = () => orm.em.fork() as EntityManager;
  const lifecycle = () => new MerchantLifecycleService(fork());
  const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await orm.em.getKnex().raw(text, params as never[])).rows as T[];
  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: { message: string; extensions?: Record<string, unknown> }) => ({ message: error.message, ...error.extensions }),
    );
  const deliveriesOf = (merchantId: string) =>
    sql<DeliveryRow>('select * from merchant.webhook_deliveries where merchant_id = ? order by created_at, id', [merchantId]);
  const merchantRow = async (id: string) => (await sql<Record<string, any>>('select * from merchant.merchants where id = ?', [id]))[0];

  let nmidSeq = 0;
  const nextNmid = () => `ID30261122${String(++nmidSeq).padStart(5, '0')}`;

  /** A merchant in any state, written directly (registrations do not exist yet). */
  async function newMerchant(
    options: { status?: MerchantStatus; kycStatus?: KycStatus; bankCode?: string | null; nmid?: boolean; visible?: boolean } = {},
  ): Promise<string> {
    const em = fork();
    const bank = options.bankCode === null ? null : await em.findOneOrFail(Bank, { code: options.bankCode ?? 'LCA' });
    const now = new Date();
    const merchant = em.create(Merchant, {
      merchantCode: newMerchantCode(),
      name: 'Toko Uji',
      legalName: 'PT Toko Uji Sejahtera',
      status: options.status ?? 'draft',
      kycStatus: options.kycStatus ?? 'pending',
      categoryCode: '5411',
      phone: '+6281200000001',
      addressLine: 'Jl. Asia Afrika 1',
      addressCity: 'Bandung',
      addressProvince: 'Jawa Barat',
      addressPostalCode: '40111',
      bank,
      primaryNmid: options.nmid || options.visible ? nextNmid() : null,
      nmidAssignedAt: options.nmid || options.visible ? now : null,
      pspVisibleAt: options.visible ? now : null,
    });
    await em.flush();
    return merchant.id;
  }

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(merchantSubgraph, config());
    const banks = new BankService(fork(), secretBoxFor(config()));
    await banks.create({ code: 'LCA', name: 'Bank with endpoint', tier: 'external' });
    await banks.create({ code: 'LCB', name: 'Bank without endpoint', tier: 'external' });
    await banks.create({ code: 'LCT', name: 'Other tier-1 bank', tier: 'tier1' });
    await new WebhookService(fork(), secretBoxFor(config()), new OutboundUrlPolicy(config().outboundUrls)).setEndpoint(
      'LCA',
      'http://127.0.0.1:9/hooks',
    );
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });

  describe('the transition table', () => {
    const reasons: Partial<Record<MerchantStatus, string>> = { suspended: 'violation', deleted: 'merchant_request' };

    it('allows exactly draft/inactive → active, active → suspended/deleted, suspended → active/deleted', async () => {
      const allowed: string[] = [];
      for (const from of MERCHANT_STATUSES) {
        for (const to of MERCHANT_STATUSES) {
          const id = await newMerchant({ status: from });
          const attempt = lifecycle().changeStatus({ merchantId: id, targetStatus: to, reason: reasons[to] });
          if (TRANSITIONS[from][to]) {
            const { merchant, previousStatus } = await attempt;
            expect({ from: previousStatus, to: merchant.status }).toEqual({ from, to });
            expect(await merchantRow(id)).toMatchObject({ status: to, status_reason: reasons[to] ?? null });
            allowed.push(`${from}→${to}`);
          } else {
            expect(await errorOf(attempt)).toEqual({
              code: 'CONFLICT',
              reason: 'invalid_transition',
              message: `cannot move a merchant from ${from} to ${to}`,
            });
            expect((await merchantRow(id)).status).toBe(from);
          }
        }
      }
      expect(allowed).toEqual([
        'draft→active',
        'inactive→active',
        'active→suspended',
        'active→deleted',
        'suspended→active',
        'suspended→deleted',
      ]);
    });

    it('wants a documented reason to suspend, any reason to delete, and a known status and merchant', async () => {
      const active = await newMerchant({ status: 'active' });
      const cases: [Parameters<MerchantLifecycleService['changeStatus']>[0], Record<string, unknown>][] = [
        [
          { merchantId: active, targetStatus: 'suspended' },
          { code: 'BAD_USER_INPUT', message: 'reason must be one of kyc_expired, violation, operator_action, inactivity' },
        ],
        [{ merchantId: active, targetStatus: 'suspended', reason: 'because' }, { code: 'BAD_USER_INPUT' }],
        [
          { merchantId: active, targetStatus: 'deleted', reason: '  ' },
          { code: 'BAD_USER_INPUT', message: "reason is required to delete a merchant (merchant_request or the operator's text)" },
        ],
        [
          { merchantId: active, targetStatus: 'closed' },
          { code: 'BAD_USER_INPUT', message: 'targetStatus must be one of draft, inactive, active, suspended, deleted' },
        ],
        [
          { merchantId: '019a0000-0000-7000-8000-0000000fffff', targetStatus: 'active' },
          { code: 'NOT_FOUND', message: 'merchant not found' },
        ],
        [
          { merchantId: 'nope', targetStatus: 'active' },
          { code: 'NOT_FOUND', message: 'merchant not found' },
        ],
      ];
      for (const [input, expected] of cases) expect(await errorOf(lifecycle().changeStatus(input))).toMatchObject(expected);
      expect((await merchantRow(active)).status).toBe('active');
      for (const reason of ['kyc_expired', 'violation', 'operator_action', 'inactivity']) {
        const id = await newMerchant({ status: 'active' });
        expect((await lifecycle().changeStatus({ merchantId: id, targetStatus: 'suspended', reason })).merchant.statusReason).toBe(reason);
      }
      const byOperator = await lifecycle().changeStatus({
        merchantId: active,
        targetStatus: 'deleted',
        reason: 'duplicate account, ticket 4711',
      });
      expect(byOperator.merchant.statusReason).toBe('duplicate account, ticket 4711');
    });
  });

  describe('first activation (merchant.activated)', () => {
    const steps = {
      approval: (id: string) => lifecycle().changeStatus({ merchantId: id, targetStatus: 'active' }),
      kyc: (id: string) => lifecycle().verifyKyc(id),
      nmid: (id: string, nmid: string) => lifecycle().recordNmidAssignment(id, nmid),
    };
    const orders: (keyof typeof steps)[][] = [
      ['approval', 'kyc', 'nmid'],
      ['nmid', 'kyc', 'approval'],
      ['kyc', 'nmid', 'approval'],
      ['approval', 'nmid', 'kyc'],
    ];

    it.each(orders)('happens once, at the last of %s, %s, %s', async (...order) => {
      const id = await newMerchant({ status: 'inactive' });
      const nmid = nextNmid();
      for (const [i, step] of order.entries()) {
        const outcome = await steps[step](id, nmid);
        const last = i === order.length - 1;
        expect({ step, event: outcome.webhook?.event ?? null }).toEqual({ step, event: last ? 'merchant.activated' : null });
        const row = await merchantRow(id);
        expect({ step, visible: row.psp_visible_at !== null }).toEqual({ step, visible: last });
      }
      // Repeating any step afterwards announces nothing more.
      for (const step of ['kyc', 'nmid'] as const) expect((await steps[step](id, nmid)).webhook).toBeNull();
      const deliveries = await deliveriesOf(id);
      expect(deliveries.map((d) => d.event)).toEqual(['merchant.activated']);
    });

    it('writes the documented envelope, due at once, with the bank view of the merchant', async () => {
      const id = await newMerchant({ status: 'active', kycStatus: 'verified' });
      const nmid = nextNmid();
      const { webhook } = await lifecycle().recordNmidAssignment(id, nmid);
      const [delivery] = await deliveriesOf(id);
      const row = await merchantRow(id);
      const bank = (await sql<{ id: string }>(`select id from merchant.banks where code = 'LCA'`))[0];
      expect(delivery).toMatchObject({
        id: webhook!.eventId,
        event: 'merchant.activated',
        status: 'pending',
        attempts: 0,
        bank_id: bank.id,
      });
      expect(delivery.payload).toEqual({
        event_id: delivery.id,
        event: 'merchant.activated',
        occurred_at: new Date(row.updated_at).toISOString(),
        merchant: {
          id,
          nmid,
          bank_code: 'LCA',
          merchant_name: 'Toko Uji',
          legal_name: 'PT Toko Uji Sejahtera',
          status: 'active',
          kyc_status: 'verified',
          category_code: '5411',
          phone: '+6281200000001',
          address: { city: 'Bandung', province: 'Jawa Barat', country: 'ID' },
          updated_at: new Date(row.updated_at).toISOString(),
        },
        change: { field: 'status', old_value: 'inactive', new_value: 'active', reason: 'kyc_verified' },
      });
      expect(row).toMatchObject({ primary_nmid: nmid });
      expect(row.psp_visible_at).toEqual(row.nmid_assigned_at);
      const [{ due }] = await sql<{ due: boolean }>(
        'select next_attempt_at <= now() as due from merchant.webhook_deliveries where id = ?',
        [delivery.id],
      );
      expect(due).toBe(true);
    });

    it('is announced exactly once when the completing steps race', async () => {
      for (let round = 0; round < 5; round++) {
        const nmidFirst = await newMerchant({ status: 'draft', nmid: true });
        const nmid = nextNmid();
        const kycOnly = await newMerchant({ status: 'active' });
        await Promise.all([
          steps.approval(nmidFirst),
          steps.kyc(nmidFirst),
          steps.kyc(kycOnly),
          ...Array.from({ length: 4 }, () => steps.nmid(kycOnly, nmid)),
        ]);
        expect((await deliveriesOf(nmidFirst)).map((d) => d.event)).toEqual(['merchant.activated']);
        expect((await deliveriesOf(kycOnly)).map((d) => d.event)).toEqual(['merchant.activated']);
      }
    });

    it('is the first activation, not a reactivation, for a merchant suspended before its bank saw it', async () => {
      const id = await newMerchant({ status: 'active' });
      await lifecycle().changeStatus({ merchantId: id, targetStatus: 'suspended', reason: 'kyc_expired' });
      await steps.kyc(id);
      await steps.nmid(id, nextNmid());
      expect(await deliveriesOf(id)).toEqual([]);
      const { webhook } = await lifecycle().changeStatus({ merchantId: id, targetStatus: 'active' });
      expect(webhook?.event).toBe('merchant.activated');
    });

    it('makes the merchant visible without writing a webhook when its bank has no endpoint', async () => {
      const id = await newMerchant({ status: 'active', kycStatus: 'verified', bankCode: 'LCB' });
      expect((await steps.nmid(id, nextNmid())).webhook).toBeNull();
      expect((await merchantRow(id)).psp_visible_at).not.toBeNull();
      expect(await deliveriesOf(id)).toEqual([]);
    });

    it('comes with createOnboarded when it is given the first NMID, and not without one', async () => {
      const service = new MerchantService(fork());
      const nmid = nextNmid();
      const onboarded = await service.createOnboarded({ name: 'Toko Baru', bankCode: 'LCA', primaryNmid: nmid, categoryCode: '5812' });
      expect(await merchantRow(onboarded.id)).toMatchObject({ status: 'active', kyc_status: 'verified', primary_nmid: nmid });
      const [delivery] = await deliveriesOf(onboarded.id);
      expect(delivery.payload).toMatchObject({
        event: 'merchant.activated',
        merchant: { id: onboarded.id, nmid, bank_code: 'LCA', merchant_name: 'Toko Baru', status: 'active' },
      });
      const withoutNmid = await new MerchantService(fork()).createOnboarded({ name: 'Toko Tanpa NMID', bankCode: 'LCA' });
      expect(await merchantRow(withoutNmid.id)).toMatchObject({ status: 'active', primary_nmid: null, psp_visible_at: null });
      expect(await deliveriesOf(withoutNmid.id)).toEqual([]);
      expect(
        await errorOf(new MerchantService(fork()).createOnboarded({ name: 'Toko Kembar', bankCode: 'LCA', primaryNmid: nmid })),
      ).toMatchObject({
        code: 'CONFLICT',
        reason: 'nmid_taken',
      });
    });
  });

  describe('later moves of a merchant its bank sees', () => {
    it('announces suspension, reactivation and termination with their reasons', async () => {
      const id = await newMerchant({ status: 'active', kycStatus: 'verified', visible: true });
      await lifecycle().changeStatus({ merchantId: id, targetStatus: 'suspended', reason: 'inactivity' });
      await lifecycle().changeStatus({ merchantId: id, targetStatus: 'active' });
      await lifecycle().changeStatus({ merchantId: id, targetStatus: 'suspended', reason: 'violation' });
      await lifecycle().changeStatus({ merchantId: id, targetStatus: 'active', reason: 'appeal accepted' });
      await lifecycle().changeStatus({ merchantId: id, targetStatus: 'deleted', reason: 'merchant_request' });
      const deliveries = await deliveriesOf(id);
      expect(deliveries.map((d) => [d.event, d.payload.change])).toEqual([
        ['merchant.suspended', { field: 'status', old_value: 'active', new_value: 'suspended', reason: 'inactivity' }],
        ['merchant.reactivated', { field: 'status', old_value: 'suspended', new_value: 'active', reason: 'reactivated' }],
        ['merchant.suspended', { field: 'status', old_value: 'active', new_value: 'suspended', reason: 'violation' }],
        ['merchant.reactivated', { field: 'status', old_value: 'suspended', new_value: 'active', reason: 'appeal accepted' }],
        ['merchant.terminated', { field: 'status', old_value: 'active', new_value: 'deleted', reason: 'merchant_request' }],
      ]);
      expect(deliveries.map((d) => d.payload.merchant.status)).toEqual(['suspended', 'active', 'suspended', 'active', 'deleted']);
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(5);
    });

    it('sends a terminated merchant with id, nmid, bank_code and status only', async () => {
      const id = await newMerchant({ status: 'suspended', kycStatus: 'verified', visible: true });
      const { webhook } = await lifecycle().changeStatus({
        merchantId: id,
        targetStatus: 'deleted',
        reason: 'fraud confirmed by operator',
      });
      const [delivery] = await deliveriesOf(id);
      expect(delivery.id).toBe(webhook!.eventId);
      expect(delivery.payload.merchant).toEqual({ id, nmid: (await merchantRow(id)).primary_nmid, bank_code: 'LCA', status: 'deleted' });
      expect(delivery.payload.change).toEqual({
        field: 'status',
        old_value: 'suspended',
        new_value: 'deleted',
        reason: 'fraud confirmed by operator',
      });
    });

    it('announces nothing for a merchant its bank has never seen', async () => {
      const id = await newMerchant({ status: 'active' });
      await lifecycle().changeStatus({ merchantId: id, targetStatus: 'suspended', reason: 'violation' });
      await lifecycle().changeStatus({ merchantId: id, targetStatus: 'deleted', reason: 'merchant_request' });
      await expect(lifecycle().updateProfile({ merchantId: id, name: 'Gone' })).rejects.toMatchObject({
        extensions: { code: 'CONFLICT', reason: 'merchant_deleted' },
      });
      expect(await deliveriesOf(id)).toEqual([]);
    });
  });

  describe('KYC expiry, renewal and the automatic suspension (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md)', () => {
    const DAY = 86_400_000;
    const setExpiry = (id: string, at: Date) => sql('update merchant.merchants set kyc_expires_at = ? where id = ?', [at, id]);

    it('adds calendar months as PostgreSQL does, the day clipped to the month', async () => {
      expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
      expect(addMonths(new Date('2026-08-31T23:59:59.500Z'), 6).toISOString()).toBe('2027-02-28T23:59:59.500Z');
      expect(addMonths(new Date('2026-05-15T00:00:00Z'), 24).toISOString()).toBe('2028-05-15T00:00:00.000Z');
      const [{ pg }] = await sql<{ pg: Date }>(
        `select ('2026-01-31T10:00:00Z'::timestamptz at time zone 'UTC' + interval '1 month') at time zone 'UTC' as pg`,
      );
      expect(new Date(pg).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    });

    it('verification sets the expiry KYC_VALIDITY_MONTHS ahead', async () => {
      const id = await newMerchant({ status: 'active' });
      const { merchant } = await new MerchantLifecycleService(fork(), undefined, 12).verifyKyc(id);
      expect(merchant.kycExpiresAt!.getTime()).toBe(addMonths(merchant.kycVerifiedAt!, 12).getTime());
    });

    it('suspendIfDue suspends once, only while due; kyc_expired marks the KYC expired', async () => {
      const id = await newMerchant({ status: 'active', kycStatus: 'verified', visible: true });
      const notDue = await lifecycle().suspendIfDue(id, 'kyc_expired', async () => false);
      expect(notDue).toBeNull();
      const [first, second] = await Promise.all([
        lifecycle().suspendIfDue(id, 'kyc_expired', async () => true),
        lifecycle().suspendIfDue(id, 'kyc_expired', async () => true),
      ]);
      expect([first, second].filter(Boolean)).toHaveLength(1);
      expect(await merchantRow(id)).toMatchObject({ status: 'suspended', kyc_status: 'expired', status_reason: 'kyc_expired' });
      const deliveries = await deliveriesOf(id);
      expect(
        deliveries.map((d) => [
          d.event,
          d.payload.change.reason,
          'kyc_status' in d.payload.merchant ? d.payload.merchant.kyc_status : null,
        ]),
      ).toEqual([['merchant.suspended', 'kyc_expired', 'expired']]);
    });

    it('a reactivation of an expired KYC is refused; a renewal brings the merchant back once; a valid one only moves the date', async () => {
      const id = await newMerchant({ status: 'active', kycStatus: 'verified', visible: true });
      await setExpiry(id, new Date(Date.now() - DAY));
      await lifecycle().suspendIfDue(id, 'kyc_expired', async () => true);
      expect(await errorOf(lifecycle().changeStatus({ merchantId: id, targetStatus: 'active' }))).toMatchObject({
        code: 'CONFLICT',
        reason: 'kyc_expired',
      });
      expect(await errorOf(lifecycle().renewKyc({ merchantId: id, expiresAt: new Date(Date.now() - 1000) }))).toMatchObject({
        code: 'BAD_USER_INPUT',
      });
      expect(await errorOf(lifecycle().renewKyc({ merchantId: id, expiresAt: new Date(Date.now() + 11 * 365 * DAY) }))).toMatchObject({
        code: 'BAD_USER_INPUT',
      });
      const expiresAt = new Date(Date.now() + 365 * DAY);
      const renewed = await lifecycle().renewKyc({ merchantId: id, expiresAt });
      expect(renewed.webhook?.event).toBe('merchant.reactivated');
      expect(await merchantRow(id)).toMatchObject({ status: 'active', kyc_status: 'verified', status_reason: 'kyc_renewed' });
      expect((await merchantRow(id)).reactivated_at).not.toBeNull();
      const again = await lifecycle().renewKyc({ merchantId: id, expiresAt: new Date(expiresAt.getTime() + DAY) });
      expect(again.webhook).toBeNull();
      expect((await deliveriesOf(id)).map((d) => [d.event, d.payload.change.reason])).toEqual([
        ['merchant.suspended', 'kyc_expired'],
        ['merchant.reactivated', 'kyc_renewed'],
      ]);
    });

    it('renews only a verified or expired KYC, never a deleted merchant’s', async () => {
      const pending = await newMerchant({ status: 'active', kycStatus: 'pending' });
      const future = new Date(Date.now() + 30 * DAY);
      expect(await errorOf(lifecycle().renewKyc({ merchantId: pending, expiresAt: future }))).toMatchObject({
        code: 'CONFLICT',
        reason: 'kyc_not_verified',
      });
      const deleted = await newMerchant({ status: 'deleted', kycStatus: 'verified' });
      expect(await errorOf(lifecycle().renewKyc({ merchantId: deleted, expiresAt: future }))).toMatchObject({ reason: 'merchant_deleted' });
    });
  });

  describe('profile changes (merchant.profile_updated)', () => {
    it('announces one field with its old and new value', async () => {
      const id = await newMerchant({ status: 'active', kycStatus: 'verified', visible: true });
      const { merchant, webhook } = await lifecycle().updateProfile({ merchantId: id, name: '  Toko Uji Baru ' });
      expect(merchant.name).toBe('Toko Uji Baru');
      const [delivery] = await deliveriesOf(id);
      expect(delivery).toMatchObject({ id: webhook!.eventId, event: 'merchant.profile_updated' });
      expect(delivery.payload.change).toEqual({
        field: 'merchant_name',
        old_value: 'Toko Uji',
        new_value: 'Toko Uji Baru',
        reason: 'profile_updated',
      });
      expect(delivery.payload.merchant).toMatchObject({ merchant_name: 'Toko Uji Baru', status: 'active' });
    });

    it('announces several fields in one event: names joined by commas, values as objects; unchanged ones left out', async () => {
      const id = await newMerchant({ status: 'suspended', kycStatus: 'verified', visible: true });
      await lifecycle().updateProfile({
        merchantId: id,
        name: 'Toko Uji',
        legalName: 'PT Toko Uji Makmur',
        address: { city: 'Cimahi', postalCode: '40511', province: null },
        reason: 'address correction',
      });
      const [delivery] = await deliveriesOf(id);
      expect(delivery.payload.change).toEqual({
        field: 'legal_name,address.city,address.postal_code',
        old_value: { legal_name: 'PT Toko Uji Sejahtera', 'address.city': 'Bandung', 'address.postal_code': '40111' },
        new_value: { legal_name: 'PT Toko Uji Makmur', 'address.city': 'Cimahi', 'address.postal_code': '40511' },
        reason: 'address correction',
      });
      expect(delivery.payload.merchant).toMatchObject({
        status: 'suspended',
        address: { city: 'Cimahi', province: 'Jawa Barat', country: 'ID' },
      });
    });

    it('writes nothing when nothing changes, and no webhook for a merchant its bank has not seen', async () => {
      const visible = await newMerchant({ status: 'active', kycStatus: 'verified', visible: true });
      const before = await merchantRow(visible);
      expect((await lifecycle().updateProfile({ merchantId: visible, name: 'Toko Uji', address: { city: 'Bandung' } })).webhook).toBeNull();
      expect((await merchantRow(visible)).updated_at).toEqual(before.updated_at);
      const hidden = await newMerchant({ status: 'active' });
      expect((await lifecycle().updateProfile({ merchantId: hidden, name: 'Toko Lain' })).webhook).toBeNull();
      expect((await merchantRow(hidden)).name).toBe('Toko Lain');
      expect([...(await deliveriesOf(visible)), ...(await deliveriesOf(hidden))]).toEqual([]);
    });

    it('refuses empty values and a malformed postal code', async () => {
      const id = await newMerchant({ status: 'active' });
      expect(await errorOf(lifecycle().updateProfile({ merchantId: id, name: ' ' }))).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'name must not be empty',
      });
      expect(await errorOf(lifecycle().updateProfile({ merchantId: id, address: { postalCode: '4011' } }))).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'postalCode must be 5 digits',
      });
    });

    it('announces a KYC re-verification of a merchant its bank sees', async () => {
      const id = await newMerchant({ status: 'active', kycStatus: 'expired', visible: true });
      await lifecycle().verifyKyc(id);
      const [delivery] = await deliveriesOf(id);
      expect(delivery.payload.change).toEqual({ field: 'kyc_status', old_value: 'expired', new_value: 'verified', reason: 'kyc_verified' });
      expect(delivery.payload.merchant).toMatchObject({ kyc_status: 'verified' });
    });
  });

  describe('recordNmidAssignment', () => {
    it('keeps the first NMID, refuses a malformed one or another merchant’s, and a deleted or bank-less merchant', async () => {
      const id = await newMerchant({ status: 'draft' });
      const first = nextNmid();
      await lifecycle().recordNmidAssignment(id, first);
      const { nmid_assigned_at: assignedAt } = await merchantRow(id);
      await lifecycle().recordNmidAssignment(id, nextNmid());
      expect(await merchantRow(id)).toMatchObject({ primary_nmid: first, nmid_assigned_at: assignedAt });

      const other = await newMerchant({ status: 'draft' });
      expect(await errorOf(lifecycle().recordNmidAssignment(other, 'ID123'))).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'nmid must be "ID" followed by 10 to 15 digits',
      });
      expect(await errorOf(lifecycle().recordNmidAssignment(other, first))).toEqual({
        code: 'CONFLICT',
        reason: 'nmid_taken',
        message: `nmid ${first} belongs to another merchant`,
      });
      const deleted = await newMerchant({ status: 'deleted' });
      expect(await errorOf(lifecycle().recordNmidAssignment(deleted, nextNmid()))).toMatchObject({
        code: 'CONFLICT',
        reason: 'merchant_deleted',
      });
      const bankless = await newMerchant({ status: 'active', bankCode: null });
      expect(await errorOf(lifecycle().recordNmidAssignment(bankless, nextNmid()))).toMatchObject({
        code: 'CONFLICT',
        reason: 'merchant_without_bank',
      });
    });

    it('lets a bank record only for its own merchants, and only at tier 1', async () => {
      const [lca, lct] = await sql<{ id: string }>(`select id from merchant.banks where code in ('LCA', 'LCT') order by code`);
      const ofTier1 = await newMerchant({ bankCode: 'LCT' });
      const ofExternal = await newMerchant({ bankCode: 'LCA' });
      const tier1 = { kind: 'bank', bankId: lct.id, bankCode: 'LCT', tier: 1 } as const;
      const external = { kind: 'bank', bankId: lca.id, bankCode: 'LCA', tier: 2 } as const;
      expect(await errorOf(lifecycle().recordNmidAssignment(ofExternal, nextNmid(), external))).toMatchObject({ code: 'FORBIDDEN' });
      expect(await errorOf(lifecycle().recordNmidAssignment(ofExternal, nextNmid(), tier1))).toMatchObject({ code: 'FORBIDDEN' });
      const nmid = nextNmid();
      expect((await lifecycle().recordNmidAssignment(ofTier1, nmid, tier1)).merchant.primaryNmid).toBe(nmid);
      expect((await merchantRow(ofExternal)).primary_nmid).toBeNull();
    });
  });

  describe('the outbox row commits with the change or not at all', () => {
    const admin = (text: string) => adminQuery(database.adminUrl, text);
    afterEach(async () => {
      await admin(
        'drop trigger if exists fail_update on merchant.merchants; drop trigger if exists fail_insert on merchant.webhook_deliveries; drop function if exists merchant.fail_now()',
      );
    });

    it('writes no webhook when the merchant change fails', async () => {
      const id = await newMerchant({ status: 'active', kycStatus: 'verified', visible: true });
      await admin(
        `create function merchant.fail_now() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
      );
      await admin(
        `create trigger fail_update before update on merchant.merchants for each row when (new.status = 'suspended') execute function merchant.fail_now()`,
      );
      await expect(lifecycle().changeStatus({ merchantId: id, targetStatus: 'suspended', reason: 'violation' })).rejects.toThrow(
        /injected failure/,
      );
      expect((await merchantRow(id)).status).toBe('active');
      expect(await deliveriesOf(id)).toEqual([]);
    });

    it('keeps the merchant unchanged (not visible, not active) when its webhook cannot be written', async () => {
      const id = await newMerchant({ status: 'inactive', kycStatus: 'verified', nmid: true });
      await admin(
        `create function merchant.fail_now() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
      );
      await admin(
        `create trigger fail_insert before insert on merchant.webhook_deliveries for each row execute function merchant.fail_now()`,
      );
      await expect(lifecycle().changeStatus({ merchantId: id, targetStatus: 'active' })).rejects.toThrow(/injected failure/);
      expect(await merchantRow(id)).toMatchObject({ status: 'inactive', psp_visible_at: null });
      await admin('drop trigger fail_insert on merchant.webhook_deliveries');
      expect((await lifecycle().changeStatus({ merchantId: id, targetStatus: 'active' })).webhook?.event).toBe('merchant.activated');
    });
  });
});
