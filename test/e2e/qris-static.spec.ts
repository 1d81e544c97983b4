import { execFileSync } from 'node:child_process';
import { parse as parseEmv } from 'promptparse';
import QRCode from 'qrcode';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { tlv, withCrc } from '@lib/domain/qris/emv-tlv';
import { buildStaticQris } from '@lib/domain/qris/qris-payload';
import { STICKER_PNG_PX, stickerOptions } from '@rest-adapters/core/routes/poslite/outlets/qris/sticker';
import { type PosActor, posActor, posMember, posRequest } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const A = DEMO.merchantId;
const B = DEMO.otherMerchants[0].id;
const [PUSAT, MENTENG] = DEMO.outlets;

/** Tag (and sub-tag) values as an independent EMVCo parser (npm promptparse, CRC checked) reads them. */
function decode(payload: string) {
  const qr = parseEmv(payload, true, true);
  if (!qr) throw new Error(`not a valid EMVCo payload: ${payload}`);
  return (id: string, sub?: string) => qr.getTagValue(id, sub);
}

describe('Static QRIS per outlet (issue 17 §1)', () => {
  let stack: TestStack;
  let owner: PosActor;
  const sql = (text: string, params: unknown[] = []) => adminQuery(stack.database.adminUrl, text, params);

  beforeAll(async () => {
    stack = await startTestStack();
    owner = await posActor(stack, A);
  });
  afterAll(() => stack.close());

  const outletOf = async (id: string) => {
    const res = await posRequest(stack, 'service', owner)('GET', `/catalog/outlets/${id}`);
    expect(res.status).toBe(200);
    return res.body as { qris_static_payload: string | null; nmid: string | null };
  };

  it('serves qris_static_payload built from the outlet NMID and the merchant, every tag and the CRC right', async () => {
    const outlet = await outletOf(PUSAT.id);
    const tag = decode(outlet.qris_static_payload!);
    expect(tag('00')).toBe('01');
    expect(tag('01')).toBe('11');
    expect(tag('51', '00')).toBe('ID.CO.QRIS.WWW');
    expect(tag('51', '02')).toBe(PUSAT.nmid);
    expect(tag('51', '03')).toBe('UMI'); // the demo merchant is a micro business
    expect(tag('52')).toBe('5814');
    expect(tag('53')).toBe('360');
    expect(tag('54')).toBeUndefined();
    expect(tag('58')).toBe('ID');
    expect(tag('59')).toBe('WARUNG KOPI DEMO');
    expect(tag('60')).toBe('JAKARTA PUSAT');
    expect(tag('61')).toBe('10340');
    // The list, the app surface and the bank-facing NMID agree.
    const list = await posRequest(stack, 'app', owner)('GET', '/catalog/outlets');
    const listed = list.body.outlets.find((o: { id: string }) => o.id === PUSAT.id);
    expect(listed.qris_static_payload).toBe(outlet.qris_static_payload);
    // An outlet without an NMID has none.
    const created = await posRequest(stack, 'service', owner)('POST', '/catalog/outlets', { code: 'NO-NMID', name: 'Gerobak' });
    expect(created.body.qris_static_payload).toBeNull();
  });

  it('follows every input: merchant name (punctuation, non-ASCII letters), business scale, outlet city and NMID', async () => {
    await sql(`update merchant.merchants set name = $2, business_scale_code = 'small' where id = $1`, [
      A,
      'Kafé Ñoño’s “Kopi” & Roti, Łódź',
    ]);
    const patched = await posRequest(stack, 'app', owner)('PATCH', `/catalog/outlets/${MENTENG.id}`, { city: 'Kabupaten Bandung Barat' });
    expect(patched.status).toBe(200);
    const tag = decode(patched.body.qris_static_payload);
    expect(tag('59')).toBe('KAFE NONO\'S "KOPI" & ROTI');
    expect(tag('51', '03')).toBe('UKE');
    expect(tag('60')).toBe('BANDUNG BARAT');
    const renumbered = await posRequest(stack, 'app', owner)('PATCH', `/catalog/outlets/${MENTENG.id}`, { nmid: 'ID2026112799901' });
    expect(decode(renumbered.body.qris_static_payload)('51', '02')).toBe('ID2026112799901');
    await sql(`update merchant.merchants set name = 'Warung Kopi Demo', business_scale_code = null where id = $1`, [A]);
  });

  it('keeps a manual correction only when it is a valid static QRIS of the outlet NMID; 400 with the error body otherwise', async () => {
    const asA = posRequest(stack, 'service', owner);
    const generated = (await outletOf(PUSAT.id)).qris_static_payload!;
    const broken = generated.slice(0, -4) + (generated.endsWith('0000') ? '1111' : '0000');
    const otherNmid = buildStaticQris({ nmid: 'ID1999999999999', merchantName: 'X', merchantCity: 'Y', mcc: '5814', criteria: 'UMI' });
    const dynamic = withCrc(generated.slice(0, -8).replace('010211', '010212') + tlv('54', '1000'));
    for (const bad of ['hello', '000201010211', broken, otherNmid, dynamic, generated.slice(0, -10)]) {
      const res = await asA('PATCH', `/catalog/outlets/${PUSAT.id}`, { qris_static_payload: bad });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringMatching(/qris_static_payload/), code: 'bad_request' });
    }
    expect((await outletOf(PUSAT.id)).qris_static_payload).toBe(generated);

    // The bank's own sticker: its acquirer template (26) beside the national one (51) with our NMID.
    const bankSticker = withCrc(
      tlv('00', '01') +
        tlv('01', '11') +
        tlv('26', tlv('00', 'ID.CO.BANKDEMO.WWW') + tlv('01', '936000011234567890') + tlv('02', 'MID0001') + tlv('03', 'UMI')) +
        tlv('51', tlv('00', 'ID.CO.QRIS.WWW') + tlv('02', PUSAT.nmid) + tlv('03', 'UMI')) +
        tlv('52', '5814') +
        tlv('53', '360') +
        tlv('58', 'ID') +
        tlv('59', 'WARUNG KOPI DEMO') +
        tlv('60', 'JAKARTA PUSAT') +
        tlv('62', tlv('07', 'A01')),
    );
    const corrected = await asA('PATCH', `/catalog/outlets/${PUSAT.id}`, { qris_static_payload: bankSticker });
    expect(corrected.status).toBe(200);
    expect(corrected.body.qris_static_payload).toBe(bankSticker);
    expect((await outletOf(PUSAT.id)).qris_static_payload).toBe(bankSticker);
    // "" drops the correction: the built payload is back.
    expect((await asA('PATCH', `/catalog/outlets/${PUSAT.id}`, { qris_static_payload: '' })).body.qris_static_payload).toBe(generated);
  });

  /**
   * The PNG qrcode draws of `payload` with the sticker's options, drawn by a plain Node process: pngjs's per-pixel loop
   * runs about 40 times slower in Jest's module sandbox (2 s against 50 ms), where the REST app's own drawing runs already.
   */
  const pngOutsideJest = (payload: string): Buffer =>
    execFileSync(
      process.execPath,
      [
        '-e',
        `require('qrcode').toBuffer(process.argv[1], ${JSON.stringify(stickerOptions('png'))}).then((b) => process.stdout.write(b))`,
        payload,
      ],
      { cwd: process.cwd(), maxBuffer: 1 << 24 },
    );

  describe('GET /merchant/outlets/{id}/qris and /poslite/outlets/{id}/qris', () => {
    const get = (url: string, headers: Record<string, string>) => stack.rest.inject({ method: 'GET', url, headers });
    const bearer = (actor: PosActor) => ({ authorization: `Bearer ${actor.token}` });
    const internal = (merchantId: string) => ({ 'x-internal-api-key': stack.config.secrets.internalApiKey, 'x-merchant-id': merchantId });

    it('renders the outlet payload as svg (default), png and text, the payload in X-QRIS-Payload', async () => {
      const payload = (await outletOf(PUSAT.id)).qris_static_payload!;
      const svg = await get(`/merchant/outlets/${PUSAT.id}/qris`, bearer(owner));
      expect(svg.statusCode).toBe(200);
      expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(svg.headers['x-qris-payload']).toBe(payload);
      expect(svg.body).toBe(await QRCode.toString(payload, stickerOptions('svg')));

      const png = await get(`/merchant/outlets/${PUSAT.id}/qris?format=png`, bearer(owner));
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      // IHDR: 1024 × 1024, 8-bit grey (rest-adapters/core/routes/poslite/outlets/qris/sticker.ts).
      expect([png.rawPayload.readUInt32BE(16), png.rawPayload.readUInt32BE(20), png.rawPayload[24], png.rawPayload[25]]).toEqual([
        1024, 1024, 8, 0,
      ]);
      expect(png.rawPayload).toEqual(pngOutsideJest(payload));

      const text = await get(`/poslite/outlets/${PUSAT.id}/qris?format=text`, internal(A));
      expect(text.statusCode).toBe(200);
      expect(text.headers['content-type']).toMatch(/^text\/plain/);
      expect(text.body).toBe(await QRCode.toString(payload, stickerOptions('text')));

      expect((await get(`/merchant/outlets/${PUSAT.id}/qris?format=gif`, bearer(owner))).statusCode).toBe(400);
    });

    it('draws the PNG 1024 px square whatever the QR version (6 and 34 came out 1023 px before)', () => {
      for (const [bytes, version] of [
        [20, 1],
        [130, 6],
        [2380, 34],
      ] as const) {
        const payload = 'Q'.repeat(bytes);
        expect(QRCode.create(payload, { errorCorrectionLevel: 'M' }).version).toBe(version);
        const png = pngOutsideJest(payload);
        expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([STICKER_PNG_PX, STICKER_PNG_PX]);
      }
    });

    it('owners and admins of the outlet only: 403 for other roles and outlets, 404 for another merchant, 401 without a token', async () => {
      const admin = await posMember(stack, A, 'admin', [PUSAT.id]);
      const adminElsewhere = await posMember(stack, A, 'admin', [MENTENG.id]);
      const staff = await posMember(stack, A, 'staff', [PUSAT.id]);
      const viewer = await posMember(stack, A, 'viewer');
      const other = await posActor(stack, B);
      expect((await get(`/merchant/outlets/${PUSAT.id}/qris`, bearer(admin))).statusCode).toBe(200);
      for (const actor of [adminElsewhere, staff, viewer]) {
        const res = await get(`/merchant/outlets/${PUSAT.id}/qris`, bearer(actor));
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('forbidden');
      }
      expect((await get(`/merchant/outlets/${PUSAT.id}/qris`, bearer(other))).statusCode).toBe(404);
      expect((await get(`/poslite/outlets/${PUSAT.id}/qris`, internal(B))).statusCode).toBe(404);
      expect((await get(`/merchant/outlets/${PUSAT.id}/qris`, {})).statusCode).toBe(401);
      const created = await posRequest(stack, 'app', owner)('POST', '/catalog/outlets', { code: 'NO-NMID-2', name: 'Gerobak 2' });
      const none = await get(`/merchant/outlets/${created.body.id}/qris`, bearer(owner));
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ error: expect.stringMatching(/NMID/), code: 'not_found' });
    });
  });
});
