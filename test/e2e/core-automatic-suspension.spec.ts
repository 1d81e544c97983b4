import { createHmac, randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createSubgraphApp } from '@lib/federation/subgraph-definition';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { SUBGRAPHS } from '@subgraphs';
import { postDemoBankEvent } from '../support/bank-events';
import { gql, operatorHeaders } from '../support/graphql';
import { HttpRecorder, type RecordedRequest } from '../support/http-recorder';
import { ops } from '../support/ops-cli';
import { posMember } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const MAKASSAR = new ZonedCalendar('Asia/Makassar');
const DAY_MS = 86_400_000;

/**
 * Automatic suspension (issue 48 §3; psp-api.md §3 and §6; docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md)
 * through the real job workers of the merchant and transaction processes, a real local webhook receiver (the bank) and
 * a real local push provider. A test starts a day's run the way the chain does: it queues `suspension.plan` for a run
 * time; the worker judges what is due by its own clock. Time passing is the stored times moved back (an activation 7
 * months ago, a warning given 15 days ago), never a clock of the code's.
 */
describe('Automatic suspension (issue 48 §3)', () => {
  let stack: TestStack;
  let push: HttpRecorder;
  let bank: HttpRecorder;
  let webhookSecret: string;
  let opsEnv: NodeJS.ProcessEnv;
  const extra: FastifyInstance[] = [];
  const sql = <T extends object = Record<string, any>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);
  const operator = async (query: string, variables: Record<string, unknown> = {}) =>
    gql(stack, query, variables, await operatorHeaders(stack, ['admin']));

  beforeAll(async () => {
    push = await new HttpRecorder(() => ({ status: 200, body: { name: `projects/demo/messages/${randomUUID()}` } })).start();
    bank = await new HttpRecorder(() => ({ status: 200, body: { ok: true } })).start();
    stack = await startTestStack(
      {
        PUSH_PROVIDER_URL: `${push.url}/v1/send`,
        PUSH_PROVIDER_TOKEN: 'push-token',
        SUSPENSION_INACTIVITY_MONTHS: '6',
        SUSPENSION_WARNING_DAYS: '14',
        JOBS_POLL_INTERVAL_MS: '100',
      },
      { own: true },
    );
    opsEnv = { ...process.env, NODE_ENV: 'test', DATABASE_URL: stack.database.adminUrl };
    const endpoint = await operator(
      `mutation($url: String!) { setBankWebhookEndpoint(bankCode: "${DEMO.bank.code}", url: $url) { webhookSecret } }`,
      {
        url: `${bank.url}/hooks`,
      },
    );
    webhookSecret = endpoint.data.setBankWebhookEndpoint.webhookSecret;
  });
  afterAll(async () => {
    for (const app of extra) await app.close();
    await stack?.close();
    await push?.stop();
    await bank?.stop();
  });

  const until = async (done: () => boolean | Promise<boolean>, ms = 15_000) => {
    const deadline = Date.now() + ms;
    while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };
  /** A live merchant of the demo bank onboarded by the operator CLI (active, KYC verified, an NMID: its bank sees it). */
  const onboard = async (name: string) => {
    const nmid = `ID55${String(randomInt(1e9)).padStart(9, '0')}${randomInt(10, 99)}`;
    const created = await ops(['merchant:create', '--name', name, '--bank', DEMO.bank.code, '--nmid', nmid], opsEnv);
    expect(created.code).toBe(0);
    return { id: created.stdout!.result.merchant_id as string, code: created.stdout!.result.merchant_code as string, nmid, name };
  };
  /** An owner of the merchant with a device registered for pushes, in `language`. */
  const owner = async (merchantId: string, language: 'id' | 'en') => {
    const actor = await posMember(stack, merchantId, 'owner');
    const headers = { authorization: `Bearer ${actor.token}` };
    const token = `push-suspension-${randomUUID()}`;
    const registered = await stack.rest.inject({
      method: 'POST',
      url: '/auth/push-tokens',
      headers,
      payload: { push_token: token, device_id: `device-${randomUUID()}` },
    });
    expect(registered.statusCode).toBe(200);
    const saved = await stack.rest.inject({ method: 'PUT', url: '/auth/account-settings', headers, payload: { app_language: language } });
    expect(saved.statusCode).toBe(200);
    return token;
  };
  const warningsTo = (token: string): RecordedRequest[] =>
    push.requests.filter((r) => r.json?.message?.token === token && r.json?.message?.data?.type === 'suspension_warning');
  /** The lifecycle webhooks the bank received for a merchant, each checked against its signature. */
  const webhooksOf = (merchantId: string, event?: string) =>
    bank.requests
      .filter((r) => r.json?.merchant?.id === merchantId && (!event || r.json.event === event))
      .map((r) => {
        const expected = createHmac('sha256', webhookSecret)
          .update(`${String(r.headers['x-service-timestamp'])}.${r.body}`)
          .digest('hex');
        expect(r.headers['x-service-signature']).toBe(`sha256=${expected}`);
        expect(r.headers['x-service-event-id']).toBe(r.json.event_id);
        return r.json;
      });
  const statusOf = async (merchantId: string) =>
    (
      await sql<{ status: string; kyc_status: string; status_reason: string | null }>(
        `select status, kyc_status, status_reason from merchant.merchants where id = $1`,
        [merchantId],
      )
    )[0];
  const runDay = (at: Date, key = 'suspension.plan') =>
    sql(`select graphile_worker.add_job('suspension.plan', json_build_object('scheduled_at', $1::text), job_key => $2)`, [
      at.toISOString(),
      key,
    ]);
  const pendingPlans = () =>
    sql<{ run_at: Date; payload: { scheduled_at: string } }>(
      `select j.run_at, p.payload from graphile_worker.jobs j join graphile_worker._private_jobs p on p.id = j.id
        where j.task_identifier = 'suspension.plan' and j.locked_at is null`,
    );
  /** No suspension job of any hop left to run (the day's run, its transaction hop and the answer all done). */
  const settled = async () =>
    (
      await sql(
        `select 1 from graphile_worker.jobs where task_identifier in ('suspension.activity', 'suspension.inactivity')
            or (task_identifier = 'suspension.plan' and run_at <= now())`,
      )
    ).length === 0;

  it('at start, every merchant worker makes sure the next run is queued, once, at SUSPENSION_RUN_AT', async () => {
    const plans = await pendingPlans();
    expect(plans).toHaveLength(1);
    const runAt = new Date(plans[0].run_at);
    const { hour, minute } = stack.config.suspension.runAt;
    expect(MAKASSAR.iso(runAt).slice(11, 16)).toBe(`${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
    expect(runAt.getTime()).toBeGreaterThan(Date.now());
    expect(plans[0].payload.scheduled_at).toBe(runAt.toISOString());
  });

  describe('a day: warnings first, the suspension once the warning is old enough, exactly once across copies', () => {
    let idle: Awaited<ReturnType<typeof onboard>>;
    let transacted: Awaited<ReturnType<typeof onboard>>;
    let nearlyIdle: Awaited<ReturnType<typeof onboard>>;
    let expired: Awaited<ReturnType<typeof onboard>>;
    let expiring: Awaited<ReturnType<typeof onboard>>;
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      [idle, transacted, nearlyIdle, expired, expiring] = await Promise.all([
        onboard('Toko Sepi'),
        onboard('Toko Ramai'),
        onboard('Toko Hampir Sepi'),
        onboard('Toko KYC Lewat'),
        onboard('Toko KYC Hampir'),
      ]);
      tokens.idle = await owner(idle.id, 'en');
      tokens.nearlyIdle = await owner(nearlyIdle.id, 'id');
      tokens.expired = await owner(expired.id, 'id');
      tokens.expiring = await owner(expiring.id, 'en');
      // Activated 7 months ago, no payment since: past the window. Another, the same, but paid a month ago. One whose
      // window ends in 5 days (within the 14 warning days). A KYC that expired yesterday, one that expires in 3 days.
      await sql(`update merchant.merchants set psp_visible_at = now() - interval '7 months' where id = any($1::uuid[])`, [
        [idle.id, transacted.id],
      ]);
      await sql(`update merchant.merchants set psp_visible_at = now() - interval '6 months' + interval '5 days' where id = $1`, [
        nearlyIdle.id,
      ]);
      await sql(`update merchant.merchants set kyc_expires_at = now() - interval '1 day' where id = $1`, [expired.id]);
      await sql(`update merchant.merchants set kyc_expires_at = now() + interval '3 days' where id = $1`, [expiring.id]);
      const monthAgo = new Date(Date.now() + 7 * 3600_000 - 30 * DAY_MS).toISOString().replace('Z', '+07:00');
      const paid = await postDemoBankEvent(stack, {
        external_event_id: `evt-suspension-${randomUUID()}`,
        transaction_code: `TRX-suspension-${randomUUID()}`,
        gross_amount: 25_000,
        nmid: transacted.nmid,
        transaction_at: monthAgo,
      });
      expect(paid.statusCode).toBe(200);
      await until(() => bank.requests.filter((r) => r.json?.event === 'merchant.activated').length >= 5);

      // The first day: warnings only (none is 14 days old yet).
      await runDay(new Date(Date.now() - 60_000));
      await until(async () => (await settled()) && Object.values(tokens).every((t) => warningsTo(t).length > 0));
    });

    it('warns each owner once, by push in their language, naming the day the suspension takes effect; suspends no one yet', async () => {
      const inTwoWeeks = MAKASSAR.dateOf(new Date(Date.now() + 14 * DAY_MS));
      const [idleWarning] = warningsTo(tokens.idle).map((r) => r.json.message);
      expect(idleWarning.data).toMatchObject({
        type: 'suspension_warning',
        merchant_id: idle.id,
        reason: 'inactivity',
        suspends_on: inTwoWeeks,
      });
      expect(idleWarning.notification.title).toBe('Toko Sepi will be suspended');
      expect(idleWarning.notification.body).toContain('has had no successful transaction for 6 months');
      const [nearlyWarning] = warningsTo(tokens.nearlyIdle).map((r) => r.json.message);
      expect(nearlyWarning.data).toMatchObject({ reason: 'inactivity', suspends_on: inTwoWeeks });
      expect(nearlyWarning.notification.body).toMatch(/^Toko Hampir Sepi tidak memiliki transaksi berhasil selama 6 bulan/);
      const [kycWarning] = warningsTo(tokens.expired).map((r) => r.json.message);
      expect(kycWarning.data).toMatchObject({ reason: 'kyc_expired', merchant_id: expired.id });
      expect(kycWarning.notification.body).toContain('Masa berlaku verifikasi data (KYC) Toko KYC Lewat berakhir');
      const [expiringWarning] = warningsTo(tokens.expiring).map((r) => r.json.message);
      expect(expiringWarning.data).toMatchObject({ reason: 'kyc_expired', suspends_on: inTwoWeeks });
      expect(expiringWarning.notification.body).toContain('The KYC verification of Toko KYC Hampir expires');
      for (const m of [idle, transacted, nearlyIdle, expired, expiring]) expect((await statusOf(m.id)).status).toBe('active');
      expect(bank.requests.filter((r) => r.json?.event === 'merchant.suspended')).toEqual([]);
      // The merchant that took a payment a month ago is not due: the transaction subgraph's answer is kept.
      const [copy] = await sql(`select last_success_at, activity_checked_at from merchant.merchants where id = $1`, [transacted.id]);
      expect(Math.abs(new Date(copy.last_success_at).getTime() - (Date.now() - 30 * DAY_MS))).toBeLessThan(10 * 60_000);
      expect(copy.activity_checked_at).not.toBeNull();
      expect(await sql(`select 1 from merchant.suspension_warnings where merchant_id = $1`, [transacted.id])).toEqual([]);
    });

    it('lists who is due, with the warning and when it suspends, for operators (GraphQL and ops)', async () => {
      const listed = await operator(
        `{ merchantSuspensionsDue(withinDays: 14) { merchantId merchantCode bankCode reason dueAt suspendsAt warnedAt lastSuccessfulTransactionAt } }`,
      );
      const ours = (listed.data.merchantSuspensionsDue as any[]).filter((d) =>
        [idle, transacted, nearlyIdle, expired, expiring].some((m) => m.id === d.merchantId),
      );
      expect(ours.map((d) => [d.merchantCode, d.reason]).sort()).toEqual(
        [
          [idle.code, 'inactivity'],
          [nearlyIdle.code, 'inactivity'],
          [expired.code, 'kyc_expired'],
          [expiring.code, 'kyc_expired'],
        ].sort(),
      );
      const idleDue = ours.find((d) => d.merchantId === idle.id);
      expect(idleDue).toMatchObject({ bankCode: DEMO.bank.code, warnedAt: expect.any(String), lastSuccessfulTransactionAt: null });
      expect(new Date(idleDue.suspendsAt).getTime() - new Date(idleDue.warnedAt).getTime()).toBe(14 * DAY_MS);
      // A narrower window leaves out what is due later.
      const tomorrow = await operator(`{ merchantSuspensionsDue(withinDays: 1) { merchantId } }`);
      const tomorrowIds = (tomorrow.data.merchantSuspensionsDue as { merchantId: string }[]).map((d) => d.merchantId);
      expect(tomorrowIds).toEqual(expect.arrayContaining([idle.id, expired.id]));
      expect(tomorrowIds).not.toContain(nearlyIdle.id);
      expect(tomorrowIds).not.toContain(expiring.id);
      expect((await operator(`{ merchantSuspensionsDue(withinDays: -1) { merchantId } }`)).errors?.[0].extensions?.code).toBe(
        'BAD_USER_INPUT',
      );

      const cli = await ops(['merchant:suspensions-due', '--days', '14', '--limit', '500'], opsEnv);
      expect(cli.code).toBe(0);
      const cliOurs = (cli.stdout!.result as any[]).filter((d) => ours.some((o) => o.merchantId === d.merchant_id));
      expect(cliOurs).toHaveLength(4);
      expect(cliOurs.find((d) => d.merchant_id === expired.id)).toMatchObject({
        merchant_code: expired.code,
        reason: 'kyc_expired',
        bank_code: DEMO.bank.code,
        warned_at: expect.any(String),
      });
    });

    it('suspends once the warning is old enough: one merchant.suspended to the bank per merchant with its reason, across three runs on more copies and a re-run', async () => {
      for (const name of ['merchant', 'transaction'] as const) {
        const app = await createSubgraphApp(
          SUBGRAPHS.find((s) => s.name === name)!,
          stack.config,
          { logStream: { write: () => undefined } },
        );
        await app.listen({ host: '127.0.0.1', port: 0 });
        extra.push(app);
      }
      // Fifteen days later, as far as the warnings go.
      await sql(`update merchant.suspension_warnings set warned_at = warned_at - interval '15 days' where merchant_id = any($1::uuid[])`, [
        [idle.id, nearlyIdle.id, expired.id, expiring.id],
      ]);
      const at = new Date(Date.now() - 60_000);
      await Promise.all([runDay(at), runDay(at, `stray-1-${randomUUID()}`), runDay(at, `stray-2-${randomUUID()}`)]);
      await until(
        async () =>
          (await settled()) &&
          webhooksOf(idle.id, 'merchant.suspended').length > 0 &&
          webhooksOf(expired.id, 'merchant.suspended').length > 0,
      );
      await stack.database.jobsIdle();
      await runDay(at, `rerun-${randomUUID()}`);
      await until(settled);
      await stack.database.jobsIdle();

      const [idleSuspended] = webhooksOf(idle.id, 'merchant.suspended');
      expect(webhooksOf(idle.id, 'merchant.suspended')).toHaveLength(1);
      expect(idleSuspended).toMatchObject({
        event: 'merchant.suspended',
        merchant: { id: idle.id, nmid: idle.nmid, status: 'suspended', kyc_status: 'verified' },
        change: { field: 'status', old_value: 'active', new_value: 'suspended', reason: 'inactivity' },
      });
      expect(webhooksOf(expired.id, 'merchant.suspended')).toHaveLength(1);
      expect(webhooksOf(expired.id, 'merchant.suspended')[0]).toMatchObject({
        merchant: { id: expired.id, status: 'suspended', kyc_status: 'expired' },
        change: { field: 'status', old_value: 'active', new_value: 'suspended', reason: 'kyc_expired' },
      });
      expect(await statusOf(idle.id)).toEqual({ status: 'suspended', kyc_status: 'verified', status_reason: 'inactivity' });
      expect(await statusOf(expired.id)).toEqual({ status: 'suspended', kyc_status: 'expired', status_reason: 'kyc_expired' });
      // Warned long enough, but not due yet: still active. Not due at all: still active.
      for (const m of [nearlyIdle, expiring, transacted]) expect((await statusOf(m.id)).status).toBe('active');
      for (const m of [nearlyIdle, expiring, transacted]) expect(webhooksOf(m.id, 'merchant.suspended')).toEqual([]);
      // One warning each, however many runs.
      for (const token of Object.values(tokens)) expect(warningsTo(token)).toHaveLength(1);
      expect(
        await sql(`select 1 from merchant.webhook_deliveries where merchant_id = $1 and event = 'merchant.suspended'`, [idle.id]),
      ).toHaveLength(1);
      // Still one run queued, for the next day.
      const plans = await pendingPlans();
      expect(plans).toHaveLength(1);
      expect(new Date(plans[0].run_at).getTime()).toBeGreaterThan(Date.now());
    });

    it('renewing the KYC brings the merchant back (merchant.reactivated, kyc_renewed); an operator cannot reactivate it without', async () => {
      const reactivate = await operator(
        `mutation($id: ID!) { changeMerchantStatus(input: { merchantId: $id, targetStatus: "active" }) { status } }`,
        { id: expired.id },
      );
      expect(reactivate.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'kyc_expired' });
      const past = await operator(
        `mutation($id: ID!) { renewMerchantKyc(merchantId: $id, expiresAt: "2020-01-01T00:00:00Z") { status } }`,
        {
          id: expired.id,
        },
      );
      expect(past.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      expect((await statusOf(expired.id)).status).toBe('suspended');
      const forbidden = await gql(
        stack,
        `mutation($id: ID!) { renewMerchantKyc(merchantId: $id, expiresAt: "2030-01-01T00:00:00Z") { status } }`,
        { id: expired.id },
        await operatorHeaders(stack, ['support']),
      );
      expect(forbidden.errors?.[0].extensions?.code).toBe('FORBIDDEN');

      const inAYear = new Date(Date.now() + 365 * DAY_MS).toISOString();
      const renewed = await operator(
        `mutation($id: ID!, $at: DateTime!) { renewMerchantKyc(merchantId: $id, expiresAt: $at) { status kycStatus kycExpiresAt } }`,
        { id: expired.id, at: inAYear },
      );
      expect(renewed.data.renewMerchantKyc).toEqual({ status: 'active', kycStatus: 'verified', kycExpiresAt: inAYear });
      await until(() => webhooksOf(expired.id, 'merchant.reactivated').length > 0);
      expect(webhooksOf(expired.id, 'merchant.reactivated')).toEqual([
        expect.objectContaining({
          merchant: expect.objectContaining({ status: 'active', kyc_status: 'verified' }),
          change: { field: 'status', old_value: 'suspended', new_value: 'active', reason: 'kyc_renewed' },
        }),
      ]);
      // The renewed merchant is no longer listed as due; the one renewed early by ops is not either, and nothing is sent for it.
      const early = await ops(
        ['merchant:kyc-renew', '--merchant', expiring.code, '--expires', MAKASSAR.dateOf(new Date(Date.now() + 400 * DAY_MS))],
        opsEnv,
      );
      expect(early.stdout!.result).toMatchObject({ status: 'active', kyc_status: 'verified', webhook: null });
      const due = (await operator(`{ merchantSuspensionsDue(withinDays: 30) { merchantId } }`)).data.merchantSuspensionsDue as {
        merchantId: string;
      }[];
      expect(due.map((d) => d.merchantId)).not.toContain(expired.id);
      expect(due.map((d) => d.merchantId)).not.toContain(expiring.id);
    });

    it('an operator’s reactivation after inactivity: merchant.reactivated, and the window starts again (the next run leaves it active)', async () => {
      const back = await ops(['merchant:status', '--id', idle.code, '--to', 'active'], opsEnv);
      expect(back.stdout!.result).toMatchObject({ status: 'active', webhook: { event: 'merchant.reactivated' } });
      await until(() => webhooksOf(idle.id, 'merchant.reactivated').length > 0);
      expect(webhooksOf(idle.id, 'merchant.reactivated')).toHaveLength(1);
      await runDay(new Date(Date.now() - 60_000), `next-day-${randomUUID()}`);
      await until(settled);
      await stack.database.jobsIdle();
      expect((await statusOf(idle.id)).status).toBe('active');
      expect(webhooksOf(idle.id, 'merchant.suspended')).toHaveLength(1);
      expect(warningsTo(tokens.idle)).toHaveLength(1);
    });
  });
});
