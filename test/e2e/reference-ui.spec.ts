import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createBank, issuePartnerCredential, onboardMerchant } from '@scripts/database-tasks';
import { type TestStack, startTestStack } from '../support/test-stack';

/** Debian's `chromium` (`.ci/run` installs it), or CHROMIUM_PATH: its absolute path, undefined when missing. */
const CHROMIUM = (() => {
  try {
    const found = execFileSync('sh', ['-c', `command -v "${process.env.CHROMIUM_PATH ?? 'chromium'}"`], { encoding: 'utf8' }).trim();
    execFileSync(found, ['--version'], { stdio: 'ignore' });
    return found;
  } catch {
    return undefined;
  }
})();
/** Set to a folder (docs/screenshots) to write the pages' screenshots there. */
const SCREENSHOTS = process.env.REFERENCE_SCREENSHOTS;

const NMID = 'ID1026112490001';
/** An input field in the page (the project compiles without the DOM's types). */
type Field = { value: string };
const BY_NMID = '/api/psp/v1/merchants/by-nmid/{nmid}';

/**
 * The reference pages in a real browser (headless Chromium driven by puppeteer-core; issue 49 §2): the bank's page
 * shows only bank operations, takes a lookup key once in its bar, and "Try it out" on the by-NMID lookup is signed in
 * the page (Web Crypto) and answers 200 with the merchant; a wrong secret answers 401. The pages load nothing but
 * their own files under their CSP (a refused load is a console error, which fails the test). Skipped where Chromium is
 * missing locally; `.ci/run` installs it.
 */
(CHROMIUM ? describe : describe.skip)('reference pages in a browser (/docs, /docs/bank)', () => {
  let stack: TestStack;
  let base: string;
  let browser: Browser;
  let key: { keyId: string; secret: string };
  let merchantId: string;
  const problems: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    base = await stack.restUrl();
    const url = stack.database.adminUrl;
    const bank = await createBank(stack.config, url, { code: 'BREFUI', name: 'Bank Reference UI', tier: 'external' });
    key = { keyId: bank.lookup_key_id, secret: bank.lookup_secret };
    merchantId = (await onboardMerchant(stack.config, url, { name: 'Toko Referensi', bankCode: 'BREFUI', nmids: [NMID], outlets: 1 }))
      .merchant_id;
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      // As root in a container Chromium needs --no-sandbox; a fixed window for the screenshots.
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--window-size=1440,1000'],
      defaultViewport: { width: 1440, height: 1000 },
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const open = async (pathname: string): Promise<Page> => {
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${pathname}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${pathname}: ${String(error)}`));
    // Rendered once the operations are listed (waiting for the network to go idle as well added half a second a page).
    await page.goto(`${base}${pathname}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.opblock-tag-section');
    return page;
  };

  const shoot = async (page: Page, name: string) => {
    if (!SCREENSHOTS) return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, name) as `${string}.png` });
  };

  /** Runs "Try it out" → Execute on an operation with these path parameters; answers the status and body the page shows. */
  const tryOperation = async (
    page: Page,
    operationId: string,
    params: Record<string, string>,
  ): Promise<{ status: string; body: string }> => {
    const block = `.opblock[id$="-${operationId}"]`;
    if (!(await page.$(`${block}.is-open`))) await page.click(`${block} .opblock-summary-control`);
    await page.waitForSelector(`${block} .btn.execute`);
    const tryOut = await page.$(`${block} .try-out__btn`);
    if (tryOut && (await tryOut.evaluate((button) => button.textContent?.trim())) === 'Try it out') await tryOut.click();
    for (const [name, value] of Object.entries(params)) {
      const input = `${block} tr[data-param-name="${name}"] input`;
      // Swagger UI renders the editable fields after "Try it out", a render later on a busy machine.
      await page.waitForSelector(input);
      await page.$eval(input, (field) => ((field as unknown as Field).value = ''));
      await page.type(input, value);
    }
    // The previous answer cleared (Swagger UI's Clear), so that the one awaited below is this request's.
    if (await page.$(`${block} .btn-clear`)) {
      await page.click(`${block} .btn-clear`);
      await page.waitForSelector(`${block} .live-responses-table`, { hidden: true });
    }
    await page.click(`${block} .btn.execute`);
    const answer = `${block} .live-responses-table tr.response`;
    await page.waitForSelector(`${answer} .response-col_status`, { timeout: 20_000 });
    return page.$eval(answer, (row) => ({
      status: row.querySelector('.response-col_status')?.textContent?.trim() ?? '',
      body: row.querySelector('.response-col_description pre')?.textContent ?? '',
    }));
  };
  const tryByNmid = (page: Page) => tryOperation(page, 'PspMerchantByNmid', { nmid: NMID });

  /** The whole reference (`/docs/`, every API): our name and logo, the audience references linked, every group described. */
  const expectWholeReference = async (page: Page) => {
    expect(await page.title()).toBe('QRIS merchant platform – All APIs reference');
    const logo = await page.$eval('.topbar a.link img', (img) => (img as unknown as { src: string }).src);
    expect(logo).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(logo.split(',')[1], 'base64').toString()).toContain('QRIS merchant platform');
    const links = await page.$$eval('.reference-nav a', (anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(links).toEqual(['/docs/', '/docs/bank/', '/docs/partner/', '/docs/app/', '/docs/internal/']);
    const tags = await page.$$eval('.opblock-tag', (headings) => headings.map((h) => h.textContent?.replace(/\s+/g, ' ').trim() ?? ''));
    expect(tags.length).toBe(17);
    for (const tag of tags) expect(tag).not.toMatch(/^(\S+: [^A-Z]+) \1$/); // "psp: lookups psp: lookups"
    await shoot(page, 'reference.png');
    // The groups, each with what it is for.
    await page.$eval('.opblock-tag-section', (section) => section.scrollIntoView());
    await shoot(page, 'reference-groups.png');
  };

  // One page through the bank's reference and then the whole one: Swagger UI takes seconds of CPU to render the whole
  // reference (every API), so it is loaded once.
  it('the bank reference signs "Try it out" in the browser; the whole reference keeps the key and shows every group', async () => {
    const page = await open('/docs/bank/');
    const paths = await page.$$eval('.opblock-summary-path', (spans) => spans.map((s) => s.getAttribute('data-path')));
    expect(paths.length).toBe(12);
    expect(paths.filter((p) => !p!.startsWith('/api/psp/v1/') && !p!.startsWith('/psp/v1/'))).toEqual([]);
    expect(paths).toContain(BY_NMID);

    // No key yet: the request goes unsigned and the bank API refuses it.
    let answer = await tryByNmid(page);
    expect(answer.status).toBe('401');

    await page.type('#reference-key-bankLookup-key-id', key.keyId);
    await page.type('#reference-key-bankLookup-secret', key.secret);
    await page.click('#reference-keys-save');
    answer = await tryByNmid(page);
    expect(answer.status).toBe('200');
    const merchant = JSON.parse(answer.body);
    expect(merchant).toMatchObject({ merchant: { id: merchantId, merchant_name: 'Toko Referensi' }, outlets: [{ nmid: NMID }] });
    expect(await page.$eval('#reference-signing-status', (s) => s.textContent)).toContain(
      `Signed GET /api/psp/v1/merchants/by-nmid/${NMID}`,
    );
    // The secret stays in this tab: only the key id and the signature were sent.
    const stored = () =>
      page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem(
          'reference-signing-keys',
        ),
      );
    expect(JSON.parse((await stored())!)).toEqual({ bankLookup: key });
    if (SCREENSHOTS) {
      await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await shoot(page, 'reference-bank.png');
      // The operation from its title to the signed answer (its documented responses below left out).
      const top = (await (await page.$('.opblock[id$="-PspMerchantByNmid"]'))!.boundingBox())!;
      const answered = (await (await page.$('.opblock[id$="-PspMerchantByNmid"] .live-responses-table'))!.boundingBox())!;
      await page.screenshot({
        path: path.join(SCREENSHOTS, 'reference-bank-try-it.png') as `${string}.png`,
        clip: { x: top.x, y: top.y, width: top.width, height: answered.y + answered.height - top.y + 10 },
        captureBeyondViewport: true,
      });
    }

    // A wrong secret: the server refuses the signature.
    await page.$eval('#reference-key-bankLookup-secret', (field) => ((field as unknown as Field).value = ''));
    await page.type('#reference-key-bankLookup-secret', 'not-the-secret');
    await page.click('#reference-keys-save');
    answer = await tryByNmid(page);
    expect(answer.status).toBe('401');
    expect(answer.body).toContain('signature does not match');

    // Typed once: the tab's other references find the key in their bar (the whole reference signs every API).
    await Promise.all([page.waitForNavigation(), page.click('.reference-nav a[href="/docs/"]')]);
    await page.waitForSelector('.opblock-tag-section');
    expect(await page.$eval('#reference-key-bankLookup-key-id', (field) => (field as unknown as Field).value)).toBe(key.keyId);
    expect(JSON.parse((await stored())!)).toEqual({ bankLookup: { keyId: key.keyId, secret: 'not-the-secret' } });
    await expectWholeReference(page);
    await page.close();
  }, 90_000);

  it('the partner reference signs with an HMAC credential entered in its bar: the referral merchants answer 200', async () => {
    const page = await open('/docs/partner/');
    const credential = await issuePartnerCredential(stack.config, stack.database.adminUrl, {
      partnerCode: DEMO.partner.code,
      name: 'reference page',
      contract: 'A',
      scopes: ['merchant.read'],
      mode: 'hmac',
    });
    await page.type('#reference-key-partner-key-id', credential.credential_key);
    await page.type('#reference-key-partner-secret', credential.credential_secret);
    await page.click('#reference-keys-save');
    const answer = await tryOperation(page, 'PartnerReferralMerchants', { partner_id: DEMO.partner.id });
    expect(answer.status).toBe('200');
    expect(JSON.parse(answer.body).items).toEqual(expect.arrayContaining([expect.objectContaining({ merchant_id: DEMO.merchantId })]));
    expect(await page.$eval('#reference-signing-status', (s) => s.textContent)).toContain(`with ${credential.credential_key}`);
    await page.close();
  }, 60_000);

  it('the pages load under their CSP with no console error', () => {
    // The expected 401s of unsigned and wrongly signed requests are logged by the browser as failed loads.
    expect(problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
  });
});
