import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { API_PAGES, SAMPLES_PATH, apiDescription, apiPagesDir } from '@lib/rest/api-pages';
import { AUDIENCES } from '@lib/rest/audiences';

const page = (name: string) => readFileSync(path.join(apiPagesDir(), name), 'utf8');
const TIMESTAMP = '2026-11-25T09:30:00+07:00';
const EVENT_BODY = JSON.stringify({
  external_event_id: 'BDEMO-EVT-20261125-000123',
  event_type: 'qris.payment.success',
  nmid: DEMO.outlets[0].nmid,
  gross_amount: 25000,
  transaction_code: 'TRX-20261125-000123',
  transaction_at: '2026-11-25T09:29:41+07:00',
  status: 'success',
});

/** The worked examples of the walkthroughs, recomputed from the demo keys (lib/domain/demo/demo-ids.ts). */
const WORKED = [
  {
    page: 'bank.md',
    secret: DEMO.bank.lookupSecret,
    headers: ['X-API-Key-ID', DEMO.bank.lookupKeyId, 'X-Timestamp', 'X-Signature'],
    method: 'GET',
    target: `/api/psp/v1/merchants/by-nmid/${DEMO.outlets[0].nmid}?include_outlets=true`,
    body: '',
  },
  {
    page: 'bank.md',
    secret: DEMO.bank.eventSecret,
    headers: ['X-PSP-Key-ID', DEMO.bank.eventKeyId, 'X-PSP-Timestamp', 'X-PSP-Signature'],
    method: 'POST',
    target: '/psp/v1/events',
    body: EVENT_BODY,
  },
  {
    page: 'partner.md',
    secret: DEMO.partner.credentials.contractA.secret,
    headers: ['X-Partner-Key-ID', DEMO.partner.credentials.contractA.credentialKey, 'X-Partner-Timestamp', 'X-Partner-Signature'],
    method: 'GET',
    target: `/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants`,
    body: '',
  },
];

describe('API walkthrough pages (docs/api/)', () => {
  it.each(WORKED.map((w) => [`${w.page} ${w.method} ${w.target}`, w] as const))(
    'worked example %s: the string to sign and the signature are right',
    (_name, w) => {
      const text = page(w.page);
      const toSign = `${w.method}\n${w.target}\n${TIMESTAMP}\n${w.body}`;
      expect(text).toContain('```text\n' + toSign + '\n```');
      const signature = createHmac('sha256', w.secret).update(toSign).digest('hex');
      const [keyHeader, keyId, timestampHeader, signatureHeader] = w.headers;
      expect(text).toContain(`${keyHeader}: ${keyId}\n${timestampHeader}: ${TIMESTAMP}\n${signatureHeader}: ${signature}\n`);
    },
  );

  it('the reference shows every page (the document’s info.description), the samples linked where it serves them', () => {
    const description = apiDescription();
    for (const name of API_PAGES)
      expect(description).toContain(page(name).trim().replaceAll('](samples/README.md)', `](${SAMPLES_PATH}/)`));
    expect(description).toContain('## Bank API: signed requests');
    expect(description).toContain(`[signing samples](${SAMPLES_PATH}/)`);
    expect(description).not.toContain('samples/README.md');
  });

  it('each audience’s reference shows the overview, its own walkthrough, the sandbox, the error body and versioning', () => {
    for (const [audience, { pages }] of Object.entries(AUDIENCES)) {
      const description = apiDescription(pages);
      expect([audience, pages]).toEqual([audience, ['index.md', expect.any(String), 'sandbox.md', 'errors.md', 'versioning.md']]);
      for (const other of API_PAGES.filter((name) => !pages.includes(name as never))) {
        expect([audience, description.includes(page(other).split('\n')[0])]).toEqual([audience, false]);
      }
    }
  });
});
