import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { serveMetrics } from '@lib/http/metrics';
import { type TestStack, startTestStack } from '../support/test-stack';

describe('core API: reference data and legal documents (full path: REST → gateway → merchant subgraph → PostgreSQL)', () => {
  let stack: TestStack;
  const get = (url: string, headers: Record<string, string> = {}) => stack.rest.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    stack = await startTestStack({ REFERENCE_CACHE_TTL_SECS: '0' }, { onlyIn: 'rest' });
  });
  afterAll(() => stack.close());

  it('lists the 38 provinces with id, code, name', async () => {
    const res = await get('/references/provinces');
    expect(res.statusCode).toBe(200);
    const { items } = res.json();
    expect(items).toHaveLength(38);
    expect(items).toContainEqual({ id: 31, code: '31', name: 'Daerah Khusus Ibukota Jakarta' });
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['code', 'id', 'name']);
  });

  it('lists cities of a province without the Kota/Kabupaten prefix, which goes to type', async () => {
    const res = await get('/references/cities?province_id=32');
    expect(res.statusCode).toBe(200);
    const { items } = res.json();
    expect(items).toHaveLength(27);
    expect(items).toContainEqual({ id: 3273, code: '32.73', name: 'Bandung', type: 'Kota' });
    expect(items).toContainEqual({ id: 3204, code: '32.04', name: 'Bandung', type: 'Kabupaten' });
    for (const item of items) expect(item.name).not.toMatch(/^(Kota|Kabupaten) /);
    const jakarta = (await get('/references/cities?province_id=31')).json().items;
    expect(jakarta).toContainEqual({ id: 3171, code: '31.71', name: 'Jakarta Pusat', type: 'Kota Administrasi' });
  });

  it('has all 514 regencies and cities across the provinces', async () => {
    const provinces = (await get('/references/provinces')).json().items as { id: number }[];
    const counts = await Promise.all(provinces.map(async (p) => (await get(`/references/cities?province_id=${p.id}`)).json().items.length));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(514);
  });

  it('lists districts of a city and villages of a district with type and coordinates (null when unknown)', async () => {
    const districts = (await get('/references/districts?city_id=3171')).json().items;
    expect(districts).toContainEqual({ id: 317101, code: '31.71.01', name: 'Gambir' });
    const villages = (await get('/references/subdistricts?district_id=317101')).json().items;
    expect(villages).toHaveLength(6);
    expect(villages).toContainEqual({
      id: 3171011001,
      code: '31.71.01.1001',
      name: 'Gambir',
      type: 'Kelurahan',
      lat: -6.1766,
      lng: 106.822,
    });
    expect(villages.find((v: { name: string }) => v.name === 'Duri Pulo')).toMatchObject({ lat: null, lng: null });
    const desa = (await get('/references/subdistricts?district_id=110101')).json().items;
    expect(desa[0]).toMatchObject({ type: 'Desa', lat: null, lng: null });
  });

  it('lists postal codes of a village with a "code - name" label, empty when unknown', async () => {
    expect((await get('/references/postal-codes?subdistrict_id=3171011001')).json()).toEqual({
      items: [{ id: expect.any(Number), code: '10110', name: 'Gambir', label: '10110 - Gambir' }],
    });
    expect((await get('/references/postal-codes?subdistrict_id=1101012001')).json()).toEqual({ items: [] });
  });

  it('lists only active business types with QRIS support, with their category and benchmarks', async () => {
    const { items } = (await get('/references/business-types')).json();
    expect(items.length).toBeGreaterThan(30);
    const codes = items.map((i: { code: string }) => i.code);
    expect(codes).not.toContain('PEDAGANG_VALUTA_ASING');
    expect(codes).not.toContain('WARUNG_NASI');
    const warung = items.find((i: { code: string }) => i.code === 'WARUNG_MAKAN');
    expect(warung).toEqual({
      id: expect.any(Number),
      code: 'WARUNG_MAKAN',
      name: 'Warung Makan',
      category_id: 1,
      category_code: 'FOOD_BEVERAGE',
      category_name: expect.any(String),
      benchmark_transactions: 900,
      benchmark_ticket_size: 25000,
      base_operational_cost_rate: expect.any(Number),
    });
  });

  it('lists the four business scales of PP 7/2021 with monthly turnover and BPS employee bands', async () => {
    const { items } = (await get('/references/business-scales')).json();
    expect(items.map((i: { code: string }) => i.code)).toEqual(['micro', 'small', 'medium', 'large']);
    expect(items[0]).toEqual({
      id: 1,
      code: 'micro',
      name: 'Usaha Mikro',
      modal_usaha_min: 0,
      modal_usaha_max: 1_000_000_000,
      omzet_per_bulan_min: 0,
      omzet_per_bulan_max: 166_666_666,
      jumlah_karyawan_min: 1,
      jumlah_karyawan_max: 4,
      sort_order: 1,
    });
    expect(items[3]).toMatchObject({
      modal_usaha_max: null,
      omzet_per_bulan_min: 4_166_666_667,
      omzet_per_bulan_max: null,
      jumlah_karyawan_max: null,
    });
    for (let i = 1; i < items.length; i++) expect(items[i].omzet_per_bulan_min).toBe(items[i - 1].omzet_per_bulan_max + 1);
  });

  it.each([
    ['/references/cities', 'province_id'],
    ['/references/districts', 'city_id'],
    ['/references/subdistricts', 'district_id'],
    ['/references/postal-codes', 'subdistrict_id'],
    ['/public/legal-documents', 'code'],
  ])('%s without %s answers 400 with the error body', async (url, param) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: expect.stringContaining(param),
      code: 'bad_request',
      details: [{ pointer: `/query/${param}`, rule: 'required', message: `must have required property '${param}'` }],
    });
  });

  it.each(['abc', '-1', '0', '1.5', "31' or 1=1--"])('rejects province_id=%s with 400', async (value) => {
    const res = await get(`/references/cities?province_id=${encodeURIComponent(value)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bad_request');
  });

  it('answers an unknown parent with an empty list', async () => {
    expect((await get('/references/cities?province_id=99')).json()).toEqual({ items: [] });
  });

  it('serves both legal documents with every field and sections', async () => {
    for (const code of ['terms_of_service', 'privacy_policy']) {
      const res = await get(`/public/legal-documents?code=${code}`);
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(Object.keys(doc).sort()).toEqual(
        [
          'code',
          'title',
          'version',
          'status',
          'page_title',
          'hero_title',
          'hero_subtitle',
          'info_title',
          'info_description',
          'support_title',
          'support_body',
          'sections',
          'published_at',
          'updated_at',
        ].sort(),
      );
      expect(doc).toMatchObject({ code, status: 'published', version: '1.0.0', published_at: '2026-11-01T01:00:00+08:00' });
      expect(doc.sections.length).toBeGreaterThanOrEqual(9);
      for (const section of doc.sections) expect(Object.keys(section).sort()).toEqual(['body', 'title']);
    }
  });

  it('answers an unknown legal document code with 404 not_found', async () => {
    const res = await get('/public/legal-documents?code=cookie_policy');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'legal document not found', code: 'not_found' });
  });

  it('sends ETag and Cache-Control, and 304 for a matching If-None-Match', async () => {
    const first = await get('/references/provinces');
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await get('/references/provinces', { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get('/references/provinces', { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('reports health, reference status and the OTP store', async () => {
    expect((await get('/health')).json()).toEqual({ service: 'core', status: 'ok', db_reference_status: 'ok' });
    expect((await get('/health/otp-runtime')).json()).toEqual({ service: 'core', status: 'ok', otp_runtime_store: 'postgresql' });
  });

  it('measures each GraphQL operation, each subgraph fetch and each connection pool', async () => {
    expect((await get('/references/provinces')).statusCode).toBe(200);
    // The REST process runs the gateway's executor itself: its operations are measured there.
    const rest = await stack.rest.metricsRegistry.metrics();
    expect(rest).toMatch(/^graphql_operation_duration_seconds_count\{[^}]*operation="Reference[A-Za-z]+",outcome="ok"\} [1-9]/m);
    expect(rest).toMatch(/^subgraph_fetch_duration_seconds_count\{[^}]*subgraph="merchant",outcome="ok"\} [1-9]/m);
    // It runs the subgraphs too (REST_SUBGRAPHS=in-process): their connection pools are measured there.
    expect(rest).toMatch(/^db_pool_connections\{subgraph="merchant",state="max"[^}]*\} [1-9]/m);
    expect(rest).toMatch(/^db_pool_connections\{subgraph="merchant",state="waiting"[^}]*\} 0$/m);
    expect(await stack.gateway.metricsRegistry.metrics()).toContain('# TYPE cache_lookups_total counter');
    // The subgraph's own process (which serves the gateway process) measures its own pool.
    expect(await stack.subgraphs.merchant.app.metricsRegistry.metrics()).toMatch(
      /^db_pool_connections\{subgraph="merchant",state="max"[^}]*\} [1-9]/m,
    );
  });

  it('serves Prometheus metrics, with per-route counts and latency histograms, at the documented route and on the internal port', async () => {
    await get('/references/provinces');
    const documented = await get('/metrics');
    expect(documented.statusCode).toBe(200);
    expect(documented.body).toMatch(/http_requests_total\{[^}]*route="\/references\/provinces"[^}]*\} \d+/);
    expect((await stack.gateway.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const metrics = await serveMetrics(stack.rest.metricsRegistry, '127.0.0.1', 0);
    try {
      const { port } = metrics.address() as AddressInfo;
      const res = await request(`http://127.0.0.1:${port}/metrics`);
      expect(res.statusCode).toBe(200);
      const body = await res.body.text();
      expect((await request(`http://127.0.0.1:${port}/health`)).statusCode).toBe(404);
      expect(body).toMatch(/http_requests_total\{[^}]*route="\/references\/provinces"[^}]*status_code="200"[^}]*\} \d+/);
      expect(body).toContain('http_request_duration_seconds_bucket');
      // The process's own metrics are added by its entry, once (collectProcessMetrics): an app built in this Jest worker
      // carries none, so none is left running once the stack closes. CI's image boot checks them on every process.
      expect(body).not.toContain('process_cpu_user_seconds_total');
    } finally {
      metrics.close();
    }
  });
});
