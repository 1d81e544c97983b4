import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { apiPagesDir } from '@lib/rest/api-pages';
import { ops } from '../support/ops-cli';
import { type TestStack, startTestStack } from '../support/test-stack';

const SAMPLES = path.join(apiPagesDir(), 'samples');

/**
 * How each language runs its sample (docs/api/samples/README.md), and the command whose presence says it can. Go and
 * Java are compiled once for the file (`go run` and Java's source launcher compile at every run: 1–3 s each, 8 runs):
 * the same source, run as a built program.
 */
const LANGUAGES: { name: string; probe: string[]; build?: (dir: string) => string[]; run: (dir: string) => string[] }[] = [
  { name: 'Node', probe: [process.execPath, '--version'], run: () => [process.execPath, 'node/signing.mjs'] },
  { name: 'Python', probe: ['python3', '--version'], run: () => ['python3', 'python/signing.py'] },
  { name: 'PHP', probe: ['php', '--version'], run: () => ['php', 'php/signing.php'] },
  {
    name: 'Go',
    probe: ['go', 'version'],
    build: (dir) => ['go', 'build', '-o', path.join(dir, 'signing-go'), 'go/signing.go'],
    run: (dir) => [path.join(dir, 'signing-go')],
  },
  {
    name: 'Java',
    probe: ['java', '--version'],
    build: (dir) => ['javac', '-d', dir, 'java/Signing.java'],
    run: (dir) => ['java', '-XX:TieredStopAtLevel=1', '-cp', dir, 'Signing'],
  },
];

const available = (probe: string[]) => {
  try {
    execFileSync(probe[0], probe.slice(1), { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * The signing samples of docs/api/samples/ (issue 49 §1), each run as the integrator runs it against the stack, with
 * the stack's URL and credentials in the environment: the bank's signed lookup and payment event, the partner's
 * token exchange and bearer request, and a partner HMAC credential's signed request; each prints the answers the
 * walkthroughs document. A language whose toolchain is missing here is skipped: `.ci/run` installs all five.
 */
describe('integrator signing samples (docs/api/samples/)', () => {
  let stack: TestStack;
  let base: string;
  let hmac: { key: string; secret: string };

  let built: string;

  beforeAll(async () => {
    built = mkdtempSync(path.join(tmpdir(), 'signing-samples-'));
    const builds = LANGUAGES.filter((l) => l.build && available(l.probe)).map((l) => {
      const [command, ...args] = l.build!(built);
      return promisify(execFile)(command, args, { cwd: SAMPLES, timeout: 120_000 });
    });
    stack = await startTestStack();
    base = await stack.restUrl();
    const env = { ...process.env, DATABASE_URL: stack.database.adminUrl, GATEWAY_URL: stack.gatewayUrl, NODE_ENV: 'development' };
    const issued = await ops(
      ['partner:credential', '--partner', DEMO.partner.code, '--contract', 'A', '--scopes', 'merchant.read', '--auth', 'hmac'],
      env,
    );
    expect(issued.code).toBe(0);
    hmac = { key: issued.stdout!.result.credential_key, secret: issued.stdout!.result.credential_secret };
    await Promise.all(builds);
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
    rmSync(built, { recursive: true, force: true });
  });

  /** Runs one sample; answers its exit code and its output as [status line, body] pairs. */
  const run = async (argv: string[], env: Record<string, string>) => {
    try {
      const { stdout } = await promisify(execFile)(argv[0], argv.slice(1), {
        cwd: SAMPLES,
        env: { ...process.env, BASE: base, ...env },
        timeout: 90_000,
      });
      return { code: 0, lines: stdout.trimEnd().split('\n') };
    } catch (error: any) {
      if (typeof error.code !== 'number') throw error;
      return { code: error.code as number, lines: String(error.stdout).trimEnd().split('\n') };
    }
  };

  const bank = {
    BANK_LOOKUP_KEY_ID: DEMO.bank.lookupKeyId,
    BANK_LOOKUP_SECRET: DEMO.bank.lookupSecret,
    BANK_EVENT_KEY_ID: DEMO.bank.eventKeyId,
    BANK_EVENT_SECRET: DEMO.bank.eventSecret,
    NMID: DEMO.outlets[1].nmid,
  };

  describe.each(LANGUAGES.map((l) => [l.name, l] as const))('%s', (name, language) => {
    const present = available(language.probe);
    const maybe = present ? it : it.skip;
    if (!present) console.warn(`integrator samples: no ${language.probe[0]} here, ${name} skipped (.ci/run installs it)`);

    maybe('bank: the signed lookup answers the merchant, the signed event is recorded', async () => {
      const { code, lines } = await run([...language.run(built), 'bank'], bank);
      expect(lines[0]).toBe(`GET /api/psp/v1/merchants/by-nmid/${DEMO.outlets[1].nmid}?include_outlets=true -> 200`);
      const found = JSON.parse(lines[1]);
      expect(found.merchant.id).toBe(DEMO.merchantId);
      expect(found.outlets.map((o: { nmid: string }) => o.nmid)).toContain(DEMO.outlets[1].nmid);
      expect(lines[2]).toBe('POST /psp/v1/events -> 200');
      expect(JSON.parse(lines[3])).toMatchObject({ status: 'success', flow: 'transaction.created', merchant_id: DEMO.merchantId });
      expect(code).toBe(0);
    });

    maybe('bank: a wrong secret is refused with 401 and the sample exits 1', async () => {
      const { code, lines } = await run([...language.run(built), 'bank'], { ...bank, BANK_LOOKUP_SECRET: 'not-the-secret' });
      expect(code).toBe(1);
      expect(lines[0]).toMatch(/ -> 401$/);
      expect(JSON.parse(lines[1])).toMatchObject({ code: 'unauthorized' });
      expect(lines).toHaveLength(2);
    });

    maybe('partner: the token exchange, then the referral merchants with the bearer token', async () => {
      const { contractA } = DEMO.partner.credentials;
      const { code, lines } = await run([...language.run(built), 'partner'], {
        PARTNER_ID: DEMO.partner.id,
        PARTNER_KEY: contractA.credentialKey,
        PARTNER_SECRET: contractA.secret,
        PARTNER_AUTH: 'jwt',
      });
      expect(lines.slice(0, 3)).toEqual([
        'POST /api/partner/v1/auth/token -> 200',
        `access token received for partner ${DEMO.partner.code}`,
        `GET /api/partner/v1/partners/${DEMO.partner.id}/referral-merchants -> 200`,
      ]);
      const list = JSON.parse(lines[3]);
      expect(list.partner_id).toBe(DEMO.partner.id);
      expect(list.items.map((item: { merchant_id: string }) => item.merchant_id)).toContain(DEMO.merchantId);
      expect(code).toBe(0);
    });

    maybe('partner: an HMAC credential signs the request', async () => {
      const { code, lines } = await run([...language.run(built), 'partner'], {
        PARTNER_ID: DEMO.partner.id,
        PARTNER_KEY: hmac.key,
        PARTNER_SECRET: hmac.secret,
        PARTNER_AUTH: 'hmac',
      });
      expect(lines[0]).toBe(`GET /api/partner/v1/partners/${DEMO.partner.id}/referral-merchants -> 200`);
      expect(JSON.parse(lines[1]).items.map((item: { merchant_id: string }) => item.merchant_id)).toContain(DEMO.merchantId);
      expect(code).toBe(0);
    });
  });
});
