import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { rupiah } from '@lib/domain/money/rupiah';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { demoBankSignedRequest, postDemoBankEvent } from '../support/bank-events';
import { eventually } from '../support/eventually';
import { gql, memberHeaders } from '../support/graphql';
import { type HttpRecorder, startMessageProviders } from '../support/http-recorder';
import { screenshotPdfPage } from '../support/pdf-screenshot';
import { pdfText } from '../support/pdf-text';
import { ops } from '../support/ops-cli';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const M = DEMO.merchantId;
const [PUSAT, MENTENG] = DEMO.outlets;
const MAKASSAR = new ZonedCalendar('Asia/Makassar');
const OWNER_EMAIL = 'pemilik-laporan@tokodemo.example';
/** A PNG path (docs/screenshots/statement.png) to write page 1 of the statement's PDF to, rendered in Chromium. */
const SCREENSHOT = process.env.STATEMENT_SCREENSHOT;

interface Statement {
  id: string;
  outlet_id: string | null;
  month: string;
  status: 'pending' | 'ready';
  totals: Record<string, number> | null;
  generated_at: string | null;
}

/**
 * Monthly statements (issue 50 §4, docs/decisions/0242-daily-reconciliation.md) through the app routes on a stack of its
 * own (local email receiver): a past month of bank payments on two outlets, a refund and a settlement; the PDF read
 * back with pdf.js and the CSV parsed, both against an independent SQL computation; reruns, roles, bad months, the
 * owner's email and the monthly run.
 */
describe('Monthly statements: PDF and CSV, owner only, idempotent, emailed', () => {
  let stack: TestStack;
  let email: HttpRecorder;
  let others: HttpRecorder[];
  let owner: { headers: { authorization: string }; userId: string };
  const sql = <T extends object = Record<string, any>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);
  const today = MAKASSAR.dateOf(new Date());
  const [y, m] = today.split('-').map(Number);
  /** The month before the current one: complete, in the past. */
  const month = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  const at = (day: number, hour: number) => `${month}-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:15:00+08:00`;

  const rest = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    stack.rest.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const list = async (headers = owner.headers): Promise<Statement[]> => {
    const res = await rest('GET', `/merchant/statements?month=${month}`, headers);
    expect(res.statusCode).toBe(200);
    return res.json().items;
  };
  const readyAfter = (id: string, after: string | null) =>
    eventually(
      `statement ${id} generated`,
      async () => {
        const found = (await list()).find((s) => s.id === id);
        return found?.status === 'ready' && found.generated_at !== after ? found : undefined;
      },
      15_000,
    );
  const pay = async (code: string, nmid: string, gross: number, transactionAt: string) => {
    const res = await postDemoBankEvent(stack, {
      external_event_id: `evt-${code}`,
      transaction_code: code,
      reference_number: `REF-${code}`,
      gross_amount: gross,
      nmid,
      transaction_at: transactionAt,
      platform_fee: 100,
    });
    expect(res.statusCode).toBe(200);
  };
  /** The month's figures by SQL of its own (its own month bounds), not through the statement's code. */
  const expected = async (
    outletId: string | null,
  ): Promise<Record<'count' | 'gross' | 'mdr' | 'service' | 'refunds' | 'rows' | 'settled' | 'net', number>> => {
    const [row] = await sql<Record<string, string>>(
      `with b as (select ($2 || '-01')::timestamp at time zone 'Asia/Makassar' as start,
                         (($2 || '-01')::date + interval '1 month')::timestamp at time zone 'Asia/Makassar' as finish)
       select count(*) filter (where t.status = 'success') as count,
              coalesce(sum(t.gross_amount) filter (where t.status = 'success'), 0) as gross,
              coalesce(sum(t.mdr_fee_amount) filter (where t.status = 'success'), 0) as mdr,
              coalesce(sum(t.platform_fee) filter (where t.status = 'success'), 0) as service,
              coalesce(sum(t.refunded_amount), 0) as refunds,
              count(*) as rows,
              (select coalesce(sum(s.net_amount), 0) from "transaction".settlements s
                where s.merchant_id = $1 and s.status = 'success' and ($3::uuid is null or s.outlet_id = $3)
                  and to_char(s.settlement_date, 'YYYY-MM') = $2) as settled
         from "transaction".transactions t, b
        where t.merchant_id = $1 and ($3::uuid is null or t.outlet_id = $3) and t.transaction_at >= b.start and t.transaction_at < b.finish`,
      [M, month, outletId],
    );
    const n = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as Record<string, number>;
    return {
      count: n.count,
      gross: n.gross,
      mdr: n.mdr,
      service: n.service,
      refunds: n.refunds,
      rows: n.rows,
      settled: n.settled,
      net: n.gross - n.mdr - n.service,
    };
  };
  const download = (id: string, format: 'pdf' | 'csv', headers = owner.headers) =>
    rest('GET', `/merchant/statements/${id}/download?format=${format}`, headers);

  beforeAll(async () => {
    const providers = await startMessageProviders();
    email = providers.email;
    others = [providers.messaging, providers.push];
    stack = await startTestStack(providers.env, { own: true });
    owner = await memberHeaders(stack, M, 'owner');
    await sql(`update merchant.users set email = $2, email_verified_at = now() where id = $1`, [owner.userId, OWNER_EMAIL]);
    const run = randomUUID().slice(0, 8);
    await pay(`STM-${run}-1`, PUSAT.nmid, 125_000, at(3, 9));
    await pay(`STM-${run}-2`, PUSAT.nmid, 48_500, at(3, 20));
    await pay(`STM-${run}-3`, PUSAT.nmid, 300_000, at(17, 12));
    await pay(`STM-${run}-4`, MENTENG.nmid, 76_000, at(21, 15));
    const refund = await postDemoBankEvent(stack, {
      external_event_id: `evt-STM-${run}-refund`,
      event_type: 'qris.payment.refunded',
      nmid: PUSAT.nmid,
      reference_number: `REF-STM-${run}-2`,
      gross_amount: 8_500,
      transaction_at: at(4, 10),
    });
    expect(refund.statusCode).toBe(200);
    const settlement = demoBankSignedRequest('/psp/v1/settlements', {
      external_event_id: `stl-evt-STM-${run}`,
      settlement_id: `STL-STM-${run}`,
      nmid: PUSAT.nmid,
      bank_code: DEMO.bank.code,
      gross_amount: 173_500,
      mdr_total: 1_215,
      net_amount: 172_285,
      settlement_date: `${month}-03`,
      completed_at: `${month}-04T10:00:00+07:00`,
    });
    const settled = await stack.rest.inject({ method: 'POST', url: '/psp/v1/settlements', ...settlement });
    expect(settled.statusCode).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all([email, ...(others ?? [])].map((r) => r?.stop()));
  });

  it('generates the merchant’s statement on request: the PDF’s and the CSV’s totals are the database’s; a rerun adds no row', async () => {
    const requested = await rest('POST', '/merchant/statements', owner.headers, { month });
    expect(requested.statusCode).toBe(202);
    const pending: Statement = requested.json();
    expect(pending).toMatchObject({ month, outlet_id: null, status: 'pending' });
    const ready = await readyAfter(pending.id, null);
    const want = await expected(null);
    expect(want.refunds).toBeGreaterThanOrEqual(8_500); // ours, beside the demo data's of that month
    expect(ready.totals).toMatchObject({
      transaction_count: want.count,
      gross_amount: want.gross,
      mdr_fee_amount: want.mdr,
      service_fee_amount: want.service,
      net_amount: want.net,
      refund_amount: want.refunds,
      settled_amount: want.settled,
    });

    const pdf = await download(pending.id, 'pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="laporan-${month}.pdf"`);
    const { text } = await pdfText(pdf.rawPayload);
    const all = text.join('\n');
    const amountAfter = (label: string) => all.match(new RegExp(`${label}\\s*(-?Rp[\\d.]+)`))?.[1];
    expect(amountAfter('Penjualan kotor')).toBe(rupiah(want.gross));
    expect(amountAfter('Biaya MDR')).toBe(rupiah(-want.mdr));
    expect(amountAfter('Biaya layanan harian')).toBe(rupiah(-want.service));
    expect(amountAfter('Penjualan bersih')).toBe(rupiah(want.net));
    expect(amountAfter('Pengembalian dana \\(\\d+ transaksi\\)')).toBe(rupiah(-want.refunds));
    expect(amountAfter('Dana dicairkan \\(\\d+ pencairan\\)')).toBe(rupiah(want.settled));
    expect(all).toContain(`Daftar transaksi (${want.rows})`);
    expect(all).toContain('Hasil rekonsiliasi belum tersedia');
    if (SCREENSHOT) await screenshotPdfPage(pdf.rawPayload, SCREENSHOT);

    const csv = await download(pending.id, 'csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const records: Record<string, string>[] = parse(csv.body, { columns: true });
    const transactions = records.filter((r) => r.record === 'transaction');
    const success = transactions.filter((r) => r.status === 'success');
    const sum = (rows: Record<string, string>[], column: string) => rows.reduce((n, r) => n + Number(r[column]), 0);
    expect(transactions).toHaveLength(want.rows);
    expect(success).toHaveLength(want.count);
    expect(sum(success, 'gross_amount')).toBe(want.gross);
    expect(sum(success, 'net_amount')).toBe(want.net);
    expect(sum(transactions, 'refunded_amount')).toBe(want.refunds);
    expect(
      sum(
        records.filter((r) => r.record === 'settlement'),
        'net_amount',
      ),
    ).toBe(want.settled);
    const total = (name: string) => Number(records.find((r) => r.record === 'total' && r.id === name)!.gross_amount);
    expect(total('net_amount')).toBe(want.net);

    // A rerun: the same statement, its files replaced, no second row.
    const again = await rest('POST', '/merchant/statements', owner.headers, { month });
    expect(again.statusCode).toBe(202);
    expect(again.json().id).toBe(pending.id);
    await readyAfter(pending.id, ready.generated_at);
    const rows = await sql(`select id from "transaction".statements where merchant_id = $1 and outlet_id is null and month = $2::date`, [
      M,
      `${month}-01`,
    ]);
    expect(rows).toEqual([{ id: pending.id }]);
  });

  it('emails the owner whose address is verified: the month’s figures and the download path, no attachment', async () => {
    const want = await expected(null);
    const mail = await eventually('the statement email', async () =>
      email.requests.find((r) => r.json?.to === OWNER_EMAIL && r.json?.template === 'statement_ready'),
    );
    expect(mail.json.language).toBe('id');
    expect(mail.json.text).toContain(`bersih ${rupiah(want.net)}`);
    expect(mail.json.text).toMatch(/\/merchant\/statements\/[0-9a-f-]{36}\/download\?format=pdf/);
    expect(JSON.stringify(mail.json)).not.toContain('JVBERi0'); // no PDF (base64 "%PDF-") travels in the email
  });

  it('shows the month’s reconciliation once days of it are reconciled: differences by class, as the database holds them', async () => {
    const opsEnv = { ...process.env, NODE_ENV: 'test', DATABASE_URL: stack.database.adminUrl };
    for (const day of [3, 17, 21]) {
      const run = await ops(['reconciliation:run', '--day', `${month}-${String(day).padStart(2, '0')}`], opsEnv);
      expect(run.code).toBe(0);
    }
    const standing = await sql<{ class: string; resolution: string; n: number }>(
      `select class, resolution, count(*)::int as n from "transaction".reconciliation_differences
        where merchant_id = $1 and to_char(business_day, 'YYYY-MM') = $2 and cleared_at is null group by 1, 2`,
      [M, month],
    );
    const open = standing.filter((r) => r.resolution === 'open').reduce((n, r) => n + r.n, 0);
    expect(open).toBeGreaterThan(0); // the payments of the 17th and the 21st have no settlement

    const { id, generated_at } = (await list()).find((st) => st.outlet_id === null)!;
    expect((await rest('POST', '/merchant/statements', owner.headers, { month })).statusCode).toBe(202);
    await readyAfter(id, generated_at);
    const all = (await pdfText((await download(id, 'pdf')).rawPayload)).text.join('\n');
    expect(all).not.toContain('Hasil rekonsiliasi belum tersedia');
    expect(all.match(/Selisih terbuka\s*(\d+)/)?.[1]).toBe(String(open));
    expect(all.match(/Selisih terselesaikan\s*(\d+)/)?.[1]).toBe('0');
    for (const r of standing) expect(all.match(new RegExp(`${r.class}\\s*(\\d+)`))?.[1]).toBe(String(r.n));
  });

  it('makes an outlet’s statement with only that outlet’s figures; another merchant’s outlet is 404', async () => {
    const requested = await rest('POST', '/merchant/statements', owner.headers, { month, outlet_id: MENTENG.id });
    expect(requested.statusCode).toBe(202);
    const ready = await readyAfter(requested.json().id, null);
    const want = await expected(MENTENG.id);
    expect(ready).toMatchObject({ outlet_id: MENTENG.id, totals: { gross_amount: want.gross, net_amount: want.net } });
    const foreign = await rest('POST', '/merchant/statements', owner.headers, { month, outlet_id: DEMO.otherMerchants[0].outlets[0].id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'not_found' });
  });

  it('refuses admins, staff and viewers (403) and bad months (400 with the error body), changing nothing', async () => {
    const [{ id }] = await list();
    const count = async () => (await sql<{ n: number }>(`select count(*)::int as n from "transaction".statements`))[0].n;
    const before = await count();
    for (const role of ['admin', 'staff', 'viewer'] as const) {
      const member = await memberHeaders(stack, M, role, role === 'staff' ? [PUSAT.id] : []);
      for (const res of [
        await rest('GET', '/merchant/statements', member.headers),
        await rest('POST', '/merchant/statements', member.headers, { month }),
        await download(id, 'pdf', member.headers),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden' });
      }
      const viaGraph = await gql(stack, 'query { viewer { merchant { statements { id } } } }', {}, member.headers);
      expect(viaGraph.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    for (const bad of ['2026-13', '26-10', '2019-12', '2099-01']) {
      const res = await rest('POST', '/merchant/statements', owner.headers, { month: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request' });
      expect(typeof res.json().error).toBe('string');
    }
    expect((await rest('GET', `/merchant/statements/${randomUUID()}/download`, owner.headers)).statusCode).toBe(404);
    // Another merchant's owner: 404 for this merchant's statement, and its own list holds none of them.
    const stranger = await memberHeaders(stack, DEMO.otherMerchants[0].id, 'owner');
    expect((await download(id, 'pdf', stranger.headers)).json()).toMatchObject({ code: 'not_found' });
    const theirs = await rest('GET', '/merchant/statements', stranger.headers);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).not.toContain(id);
    expect(await count()).toBe(before);
  });

  it('runs monthly: the next run queued at start for the 1st at 03:00 WITA; a run makes the past month’s statements of every active merchant', async () => {
    const [plan] = await sql<{ run_at: Date; payload: { scheduled_at: string } }>(
      `select j.run_at, p.payload from graphile_worker.jobs j join graphile_worker._private_jobs p on p.id = j.id
        where j.task_identifier = 'statement.plan' and j.locked_at is null`,
    );
    expect(MAKASSAR.iso(new Date(plan.run_at))).toMatch(/-01T03:00:00(\.000)?\+08:00$/);
    expect(new Date(plan.run_at).getTime()).toBeGreaterThan(Date.now());
    // This month's run (the 1st, 03:00 WITA), queued now: the past month's statements of the merchant and of each outlet.
    const thisMonthsRun = MAKASSAR.midnight(`${today.slice(0, 7)}-01`).getTime() + 3 * 3_600_000;
    const [{ now }] = await sql<{ now: Date }>(`select now()`);
    await sql(
      `select graphile_worker.add_job('statement.plan', json_build_object('scheduled_at', $1::text), job_key => 'statement.plan')`,
      [new Date(thisMonthsRun).toISOString()],
    );
    const made = await eventually(
      'the monthly run’s statements',
      async () => {
        const rows = await sql<{ outlet_id: string | null; status: string }>(
          `select outlet_id, status from "transaction".statements where merchant_id = $1 and month = $2::date and generated_at > $3`,
          [M, `${month}-01`, now],
        );
        return rows.length >= 3 ? rows : undefined;
      },
      20_000,
    );
    expect(made.map((r) => r.outlet_id).sort()).toEqual([PUSAT.id, MENTENG.id, null].sort());
    const keys = await sql(`select count(*)::int as n from "transaction".statements where merchant_id = $1 and month = $2::date`, [
      M,
      `${month}-01`,
    ]);
    expect(keys).toEqual([{ n: 3 }]);
  });
});
