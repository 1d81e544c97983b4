import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createSubgraphApp } from '@lib/federation/subgraph-definition';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { SUBGRAPHS } from '@subgraphs';
import { postDemoBankEvent } from '../support/bank-events';
import { HttpRecorder, type RecordedRequest } from '../support/http-recorder';
import { type PosActor, posMember } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const MAKASSAR = new ZonedCalendar('Asia/Makassar');
const A = DEMO.merchantId;
const [PUSAT, MENTENG] = DEMO.outlets;
const SARI = DEMO.otherMerchants[0];
const SEJAHTERA = DEMO.otherMerchants[1];
/** The send time: half a day from now, so that no send time of the run falls near the test (the runs are queued by it). */
const SEND_AT = MAKASSAR.iso(new Date(Date.now() + 12 * 3600_000)).slice(11, 16);
const AT_SEND_TIME = new RegExp(`T${SEND_AT}:00\\+08:00$`);

/**
 * The daily summary push (issue 48 §1, docs/decisions/0046-notifications.md) through the real job
 * workers of every subgraph and a real local push provider. A test starts a day's run the way the queue itself does:
 * it queues the day's `daily_summary.plan` job (the one each run leaves for the next send time) with the send time it
 * is for; the worker compares that time with its own clock.
 */
describe('Daily summary (issue 48 §1)', () => {
  let stack: TestStack;
  let push: HttpRecorder;
  const extra: FastifyInstance[] = [];
  const sql = <T extends object = Record<string, any>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);
  const bearer = (actor: PosActor) => ({ authorization: `Bearer ${actor.token}` });

  beforeAll(async () => {
    push = await new HttpRecorder(() => ({ status: 200, body: { name: `projects/demo/messages/${randomUUID()}` } })).start();
    stack = await startTestStack(
      {
        PUSH_PROVIDER_URL: `${push.url}/v1/send`,
        PUSH_PROVIDER_TOKEN: 'push-token',
        DAILY_SUMMARY_SEND_AT: SEND_AT,
        DAILY_SUMMARY_CATCH_UP_MINUTES: '180',
        JOBS_POLL_INTERVAL_MS: '100',
      },
      { own: true },
    );
  });
  afterAll(async () => {
    for (const app of extra) await app.close();
    await stack?.close();
    await push?.stop();
  });

  /** A member with a device registered for pushes, in `language`, with the settings given. */
  const member = async (
    merchantId: string,
    role: 'owner' | 'admin' | 'staff' | 'viewer',
    outletIds: string[] = [],
    settings: Record<string, unknown> = {},
  ) => {
    const actor = await posMember(stack, merchantId, role, outletIds);
    const token = `push-summary-${randomUUID()}`;
    const registered = await stack.rest.inject({
      method: 'POST',
      url: '/auth/push-tokens',
      headers: bearer(actor),
      payload: { push_token: token, device_id: `device-${randomUUID()}` },
    });
    expect(registered.statusCode).toBe(200);
    if (Object.keys(settings).length > 0) {
      const saved = await stack.rest.inject({ method: 'PUT', url: '/auth/account-settings', headers: bearer(actor), payload: settings });
      expect(saved.statusCode).toBe(200);
    }
    const [{ user_id }] = await sql<{ user_id: string }>(`select t.user_id from merchant.push_tokens t where t.token = $1`, [token]);
    return { actor, token, userId: user_id };
  };
  const summariesTo = (token: string): RecordedRequest[] =>
    push.requests.filter((r) => r.json?.message?.token === token && r.json?.message?.data?.type === 'daily_summary');
  const until = async (done: () => boolean | Promise<boolean>, ms = 15_000) => {
    const deadline = Date.now() + ms;
    while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };
  /** Queues a run of the day whose send time is `scheduledAt`, under the chain's job key unless another is given. */
  const runDay = (scheduledAt: Date, key = 'daily_summary.plan') =>
    sql(`select graphile_worker.add_job('daily_summary.plan', json_build_object('scheduled_at', $1::text), job_key => $2)`, [
      scheduledAt.toISOString(),
      key,
    ]);
  const pay = async (amount: number, nmid: string) => {
    const id = `evt-summary-${randomUUID()}`;
    const res = await postDemoBankEvent(stack, { external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: amount, nmid });
    expect(res.statusCode).toBe(200);
  };
  const todaysRoute = async (actor: PosActor) => {
    const res = await stack.rest.inject({ method: 'GET', url: '/merchant/transactions?period=today', headers: bearer(actor) });
    expect(res.statusCode).toBe(200);
    return res.json().summary as {
      gross_amount: number;
      mdr_fee_amount: number;
      service_fee_amount: number;
      net_amount: number;
      transaction_count: number;
    };
  };
  /** A moment ago, but never before today's local midnight (the business day stays today's). */
  const justNow = () => {
    const now = new Date();
    return new Date(Math.max(now.getTime() - 30_000, MAKASSAR.midnight(MAKASSAR.dateOf(now)).getTime() + 1000));
  };
  const pendingPlans = () =>
    sql<{ run_at: Date; payload: { scheduled_at: string } }>(
      `select j.run_at, p.payload from graphile_worker.jobs j join graphile_worker._private_jobs p on p.id = j.id
        where j.task_identifier = 'daily_summary.plan' and j.locked_at is null`,
    );

  it('at start, every worker makes sure the next send time’s run is queued, once', async () => {
    const plans = await pendingPlans();
    expect(plans).toHaveLength(1);
    const runAt = new Date(plans[0].run_at);
    expect(MAKASSAR.iso(runAt)).toMatch(AT_SEND_TIME);
    expect(runAt.getTime()).toBeGreaterThan(Date.now() - 180 * 60_000);
    expect(plans[0].payload.scheduled_at).toBe(runAt.toISOString());
  });

  it('pushes each member one summary with the figures /merchant/transactions?period=today shows: the owner the total and the best outlet, staff and viewers their outlets; in their language; none to those who turned it off', async () => {
    const owner = await member(A, 'owner', [], { app_language: 'en' });
    const staffMenteng = await member(A, 'staff', [MENTENG.id]);
    const viewerPusat = await member(A, 'viewer', [PUSAT.id], { app_language: 'id' });
    const turnedOff = await member(A, 'admin', [], { notification_daily_summary_enabled: false });
    const pushOff = await member(A, 'admin', [], { notification_push_enabled: false });
    // Pusat the best outlet of the day whatever else the demo data holds.
    await pay(2_500_000, PUSAT.nmid);
    await pay(10_000, PUSAT.nmid);
    await pay(5_000, MENTENG.nmid);

    await runDay(justNow());
    await until(() => [owner, staffMenteng, viewerPusat].every((m) => summariesTo(m.token).length > 0));
    await stack.database.jobsIdle();

    const day = MAKASSAR.dateOf(new Date());
    for (const m of [owner, staffMenteng, viewerPusat]) {
      expect(summariesTo(m.token)).toHaveLength(1);
      const { data } = summariesTo(m.token)[0].json.message;
      const route = await todaysRoute(m.actor);
      expect(data).toMatchObject({
        type: 'daily_summary',
        merchant_id: A,
        business_day: day,
        transaction_count: String(route.transaction_count),
        gross_amount: String(route.gross_amount),
        mdr_fee_amount: String(route.mdr_fee_amount),
        service_fee_amount: String(route.service_fee_amount),
        net_amount: String(route.net_amount),
      });
    }
    // The owner sees the total of both outlets and the best one.
    const ownerPush = summariesTo(owner.token)[0].json.message;
    expect(Number(ownerPush.data.gross_amount)).toBeGreaterThanOrEqual(2_515_000);
    expect(ownerPush.data).toMatchObject({ best_outlet_id: PUSAT.id, best_outlet_name: PUSAT.name });
    const rupiah = (n: number) => `Rp${new Intl.NumberFormat('id-ID').format(n)}`;
    const ownerRoute = await todaysRoute(owner.actor);
    expect(ownerPush.notification).toEqual({
      title: 'Daily summary Warung Kopi Demo',
      body: expect.stringContaining(
        `successful transactions, gross ${rupiah(ownerRoute.gross_amount)}, net ${rupiah(ownerRoute.net_amount)}`,
      ),
    });
    expect(ownerPush.notification.body).toContain(`Best outlet: ${PUSAT.name} (Rp`);
    // Staff of Menteng: Menteng's figures only, no best outlet; in Indonesian (no settings saved: the default).
    const staffPush = summariesTo(staffMenteng.token)[0].json.message;
    expect(Number(staffPush.data.gross_amount)).toBeLessThan(Number(ownerPush.data.gross_amount));
    expect(staffPush.data.best_outlet_id).toBeUndefined();
    expect(staffPush.notification.title).toBe('Ringkasan harian Warung Kopi Demo');
    expect(staffPush.notification.body).toMatch(
      /transaksi berhasil, kotor Rp[0-9.]+, bersih Rp[0-9.]+ setelah MDR dan biaya layanan harian\.$/,
    );
    expect(summariesTo(viewerPusat.token)[0].json.message.notification.body).toContain('transaksi berhasil');
    // Turned off (daily summary, or push notifications): nothing.
    expect(summariesTo(turnedOff.token)).toHaveLength(0);
    expect(summariesTo(pushOff.token)).toHaveLength(0);
    const recorded = await sql(
      `select user_id from merchant.daily_summary_sends where business_day = $1::date and user_id = any($2::uuid[])`,
      [day, [owner, staffMenteng, viewerPusat, turnedOff, pushOff].map((m) => m.userId)],
    );
    expect(recorded).toHaveLength(3);
    // The run queued the next one, at the next send time.
    const plans = await pendingPlans();
    expect(plans).toHaveLength(1);
    expect(new Date(plans[0].run_at).getTime()).toBeGreaterThan(Date.now());
    expect(MAKASSAR.iso(new Date(plans[0].run_at))).toMatch(AT_SEND_TIME);
  });

  it('a member who turns the summary off gets nothing from the next run on', async () => {
    const m = await member(SARI.id, 'owner');
    const off = await stack.rest.inject({
      method: 'PUT',
      url: '/auth/account-settings',
      headers: bearer(m.actor),
      payload: { notification_daily_summary_enabled: false },
    });
    expect(off.statusCode).toBe(200);
    const witness = await member(SARI.id, 'staff');
    await runDay(justNow());
    await until(() => summariesTo(witness.token).length > 0);
    await stack.database.jobsIdle();
    expect(summariesTo(witness.token)).toHaveLength(1);
    expect(summariesTo(m.token)).toHaveLength(0);
  });

  it('exactly once per member and day: runs of the same day on two more copies of the merchant and transaction workers at once, and a re-run', async () => {
    for (const name of ['merchant', 'transaction'] as const) {
      const app = await createSubgraphApp(
        SUBGRAPHS.find((s) => s.name === name)!,
        stack.config,
        { logStream: { write: () => undefined } },
      );
      await app.listen({ host: '127.0.0.1', port: 0 });
      extra.push(app);
    }
    const members = await Promise.all([
      member(SEJAHTERA.id, 'owner'),
      member(SEJAHTERA.id, 'staff', [SEJAHTERA.outlets[1].id]),
      member(SEJAHTERA.id, 'viewer', [], { app_language: 'en' }),
    ]);
    const at = justNow();
    // Three runs of one day at once (the chain's and two strays), on three merchant workers and two transaction workers.
    await Promise.all([runDay(at), runDay(at, `stray-1-${randomUUID()}`), runDay(at, `stray-2-${randomUUID()}`)]);
    await until(() => members.every((m) => summariesTo(m.token).length > 0));
    await stack.database.jobsIdle();
    for (const m of members) expect(summariesTo(m.token)).toHaveLength(1);
    // A re-run of the day, later: nothing more.
    await runDay(at, `rerun-${randomUUID()}`);
    await stack.database.jobsIdle();
    for (const m of members) expect(summariesTo(m.token)).toHaveLength(1);
    const day = MAKASSAR.dateOf(at);
    const rows = await sql(`select user_id from merchant.daily_summary_sends where business_day = $1::date and user_id = any($2::uuid[])`, [
      day,
      members.map((m) => m.userId),
    ]);
    expect(rows).toHaveLength(3);
    // Still one run queued for the next send time.
    expect(await pendingPlans()).toHaveLength(1);
  });

  it('after an outage: a day’s run within the catch-up window still sends; one later than that sends nothing', async () => {
    const late = await member(SARI.id, 'viewer');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await runDay(twoHoursAgo);
    await until(() => summariesTo(late.token).length > 0);
    expect(summariesTo(late.token)).toHaveLength(1);
    expect(summariesTo(late.token)[0].json.message.data.business_day).toBe(MAKASSAR.dateOf(twoHoursAgo));

    const tooLate = await member(SARI.id, 'viewer');
    const fourHoursAgo = new Date(Date.now() - 4 * 3600_000);
    await runDay(fourHoursAgo);
    // Run (by any of the merchant workers) once the day's job has given way to the next send time's.
    const ran = async () => {
      const plans = await pendingPlans();
      return plans.length === 1 && plans[0].payload.scheduled_at !== fourHoursAgo.toISOString();
    };
    await until(ran, 10_000);
    expect(await ran()).toBe(true);
    await stack.database.jobsIdle();
    expect(summariesTo(tooLate.token)).toHaveLength(0);
    expect(await sql(`select 1 from merchant.daily_summary_sends where user_id = $1`, [tooLate.userId])).toEqual([]);
    // The chain goes on at the next send time.
    const plans = await pendingPlans();
    expect(plans).toHaveLength(1);
    expect(new Date(plans[0].run_at).getTime()).toBeGreaterThan(Date.now());
  });
});
