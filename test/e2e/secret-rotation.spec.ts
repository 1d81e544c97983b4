import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { signPrincipal, PRINCIPAL_HEADER } from '@lib/auth/principal';
import { issueServiceToken } from '@lib/auth/service-token';
import { signUserAccessToken } from '@lib/auth/user-token';
import { type Config, DEV_SECRETS, loadConfig } from '@lib/config/config';
import { SecretBox } from '@lib/crypto/secret-box';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { SEALED_COLUMNS } from '@lib/crypto/reencryption';
import { postDemoBankEvent } from '@test/support/bank-events';
import { sessionFor } from '@test/support/core-auth';
import { ops } from '@test/support/ops-cli';
import { adminQuery } from '@test/support/test-database';
import { type TestStack, startTestStack } from '@test/support/test-stack';

/**
 * Rotating each secret under traffic (docs/operations.md, "Rotating secrets"): the stack runs mid-rotation, the new
 * value current and the old one in <NAME>_PREVIOUS; requests signed or sealed either way keep succeeding, and a
 * process configured with the new value alone refuses what the old one signed.
 */
const OLD = {
  PRINCIPAL_SECRET: 'rot-old-principal-secret-000000',
  SERVICE_TOKEN_SECRET: 'rot-old-service-secret-0000000',
  USER_TOKEN_SECRET: 'rot-old-user-token-secret-0000000000000',
  PARTNER_TOKEN_SECRET: 'rot-old-partner-token-secret-000000000',
  // The template database's values are sealed under the development key.
  SECRETS_ENCRYPTION_KEY: DEV_SECRETS.SECRETS_ENCRYPTION_KEY,
};
const NEW = {
  PRINCIPAL_SECRET: 'rot-new-principal-secret-111111',
  SERVICE_TOKEN_SECRET: 'rot-new-service-secret-1111111',
  USER_TOKEN_SECRET: 'rot-new-user-token-secret-1111111111111',
  PARTNER_TOKEN_SECRET: 'rot-new-partner-token-secret-111111111',
  SECRETS_ENCRYPTION_KEY: 'rot-new-secrets-encryption-key-111111111111',
};
type Name = keyof typeof NEW;
const overlap = (names: readonly Name[]) =>
  Object.fromEntries(
    names.flatMap((name) => [
      [name, NEW[name]],
      [`${name}_PREVIOUS`, OLD[name]],
    ]),
  ) as Record<string, string>;
const ALL = Object.keys(NEW) as Name[];

describe('rotating secrets with an overlap, under traffic', () => {
  let stack: TestStack;
  const apps: FastifyInstance[] = [];
  /** A REST app on the stack's subgraphs whose secrets are the stack's but for `env` (through loadConfig, as a process reads them). */
  const restWith = async (env: Record<string, string>) => {
    const secrets = loadConfig({ ...process.env, NODE_ENV: 'test', ...overlap(ALL), ...env }).secrets;
    const config: Config = { ...stack.config, secrets };
    const app = await stack.startRestApp(config, { logStream: { write: () => undefined } });
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    stack = await startTestStack(overlap(ALL), { subgraphs: 'http' });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await stack?.close();
  });

  /** Runs `step` while `traffic` is called in a loop; every traffic answer's status. */
  async function underTraffic(traffic: () => Promise<number>, step: () => Promise<void>): Promise<number[]> {
    const statuses: number[] = [];
    let done = false;
    const loop = (async () => {
      while (!done) statuses.push(await traffic());
    })();
    await step();
    done = true;
    await loop;
    return statuses;
  }

  it('opens values sealed under the old key, re-encrypts everything under the new one while bank events flow, and needs only the new key after', async () => {
    const url = stack.database.adminUrl;
    // A corporate settlement account of the demo merchant, its number sealed under the old key (the outlet subgraph's).
    await adminQuery(
      url,
      `insert into outlet.settlement_accounts (id, merchant_id, outlet_id, bank_code, account_number_sealed, account_number_last4,
         holder_name, status, effective_at, requested_at, requested_by)
       values (gen_random_uuid(), $1, null, '014', $2, '7890', 'Pemilik Demo', 'scheduled', now(), now(), 'test')`,
      [DEMO.merchantId, new SecretBox(OLD.SECRETS_ENCRYPTION_KEY).seal('1234567890')],
    );
    const sealedValues = async () =>
      (
        await Promise.all(
          SEALED_COLUMNS.map(({ subgraph, table, column }) =>
            adminQuery(url, `select ${column} as sealed from ${subgraph}.${table} where ${column} is not null`),
          ),
        )
      ).flatMap((rows) => (rows as { sealed: string }[]).map((row) => row.sealed));
    const newOnly = new SecretBox(NEW.SECRETS_ENCRYPTION_KEY);
    const opensWithNewOnly = (sealed: string) => {
      try {
        newOnly.open(sealed);
        return true;
      } catch {
        return false;
      }
    };
    expect((await sealedValues()).filter(opensWithNewOnly)).toEqual([]);
    const opsEnv = (env: Record<string, string>) => ({ ...process.env, DATABASE_URL: url, NODE_ENV: 'development', ...env });

    // Before re-encryption a process with the new key alone cannot read them.
    const early = await ops(['secrets:reencrypt'], opsEnv({ SECRETS_ENCRYPTION_KEY: NEW.SECRETS_ENCRYPTION_KEY }));
    expect(early.code).toBe(0);
    expect(early.stdout!.result.bank_credentials.unreadable.length).toBeGreaterThan(0);
    expect(early.stdout!.result.bank_credentials.resealed).toBe(0);

    let seq = 0;
    let report: Record<string, any> = {};
    const statuses = await underTraffic(
      async () => {
        seq += 1;
        const id = `ROT-${Date.now()}-${seq}`;
        return (await postDemoBankEvent(stack, { external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: 10000 + seq }))
          .statusCode;
      },
      async () => {
        const run = await ops(['secrets:reencrypt'], opsEnv(overlap(['SECRETS_ENCRYPTION_KEY'])));
        expect(run.code).toBe(0);
        report = run.stdout!.result as Record<string, any>;
      },
    );
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status < 200 || status >= 300)).toEqual([]);
    const sealed = await sealedValues();
    expect(report.bank_credentials.unreadable).toEqual([]);
    expect(report.settlement_accounts.resealed).toBe(1);
    expect(SEALED_COLUMNS.reduce((sum, { table }) => sum + report[table].resealed, 0)).toBe(sealed.length);
    expect(sealed.filter((value) => !opensWithNewOnly(value))).toEqual([]);

    // Again: nothing left to do. With the new key alone: every value readable.
    const again = await ops(['secrets:reencrypt'], opsEnv({ SECRETS_ENCRYPTION_KEY: NEW.SECRETS_ENCRYPTION_KEY }));
    expect(again.code).toBe(0);
    for (const { table } of SEALED_COLUMNS) {
      expect(again.stdout!.result[table]).toMatchObject({ resealed: 0, unreadable: [], changed_meanwhile: 0 });
      expect(again.stdout!.result[table].current).toBe(again.stdout!.result[table].scanned);
    }
    const after = await postDemoBankEvent(stack, {
      external_event_id: 'ROT-after',
      transaction_code: 'TRX-ROT-after',
      gross_amount: 12345,
    });
    expect(after.statusCode).toBeLessThan(300);
  });

  it('accepts user tokens signed with the old and the new secret while rotating, and only the new one after', async () => {
    const oldApp = await restWith({ USER_TOKEN_SECRET: OLD.USER_TOKEN_SECRET, USER_TOKEN_SECRET_PREVIOUS: '' });
    const rotating = await restWith(overlap(['USER_TOKEN_SECRET']));
    const newApp = await restWith({ USER_TOKEN_SECRET: NEW.USER_TOKEN_SECRET, USER_TOKEN_SECRET_PREVIOUS: '' });
    const { authorization: seeded } = await sessionFor(stack, DEMO.owner.userId);
    const sessionId = (JSON.parse(Buffer.from(seeded.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
    const tokenUnder = async (secret: string) =>
      `Bearer ${(await signUserAccessToken({ userId: DEMO.owner.userId, sessionId }, secret)).token}`;
    const oldToken = await tokenUnder(OLD.USER_TOKEN_SECRET);
    const newToken = await tokenUnder(NEW.USER_TOKEN_SECRET);
    const profile = (app: FastifyInstance, authorization: string) =>
      app.inject({ method: 'GET', url: '/auth/profile', headers: { authorization } }).then((res) => res.statusCode);

    expect(await profile(oldApp, oldToken)).toBe(200);
    let i = 0;
    // Traffic with both tokens on the rotating process (and old tokens on a process not yet restarted).
    const statuses = await underTraffic(
      async () => ((i += 1) % 3 === 0 ? profile(oldApp, oldToken) : profile(rotating, i % 2 === 0 ? oldToken : newToken)),
      async () => {
        for (let n = 0; n < 30; n++) expect(await profile(rotating, n % 2 === 0 ? oldToken : newToken)).toBe(200);
      },
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // The old secret removed: its tokens are refused, the new ones accepted.
    expect(await profile(newApp, newToken)).toBe(200);
    expect(await profile(newApp, oldToken)).toBe(401);
  });

  it('accepts partner tokens issued under the old and the new secret while rotating, and only the new one after', async () => {
    const oldApp = await restWith({ PARTNER_TOKEN_SECRET: OLD.PARTNER_TOKEN_SECRET, PARTNER_TOKEN_SECRET_PREVIOUS: '' });
    const rotating = await restWith(overlap(['PARTNER_TOKEN_SECRET']));
    const newApp = await restWith({ PARTNER_TOKEN_SECRET: NEW.PARTNER_TOKEN_SECRET, PARTNER_TOKEN_SECRET_PREVIOUS: '' });
    const credential = {
      credential_key: DEMO.partner.credentials.contractA.credentialKey,
      credential_secret: DEMO.partner.credentials.contractA.secret,
    };
    const issue = async (app: FastifyInstance) => {
      const res = await app.inject({ method: 'POST', url: '/api/partner/v1/auth/token', payload: credential });
      expect(res.statusCode).toBe(200);
      return `Bearer ${res.json().access_token as string}`;
    };
    const oldToken = await issue(oldApp);
    const newToken = await issue(rotating);
    const read = (app: FastifyInstance, authorization: string) =>
      app
        .inject({ method: 'GET', url: `/api/partner/v1/merchants/${DEMO.merchantId}/transactions`, headers: { authorization } })
        .then((res) => res.statusCode);
    const statuses = await underTraffic(
      () => read(rotating, oldToken),
      async () => {
        for (let n = 0; n < 20; n++) expect(await read(rotating, newToken)).toBe(200);
      },
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await read(newApp, newToken)).toBe(200);
    expect(await read(newApp, oldToken)).toBe(401);
  });

  it('accepts service tokens and principals signed with the old and the new secret while rotating, and nothing else', async () => {
    const gateway = async (secret: string) =>
      (
        await request(stack.gatewayUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${await issueServiceToken('rot-test', secret)}` },
          body: JSON.stringify({ query: '{ __typename }' }),
        })
      ).statusCode;
    const subgraph = async (secret: string) =>
      (
        await request(stack.subgraphs.merchant.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [PRINCIPAL_HEADER]: await signPrincipal({ kind: 'service', service: 'rot-test' }, secret),
          },
          body: JSON.stringify({ query: '{ __typename }' }),
        })
      ).statusCode;
    // The gateway signs principals with the new secret (the stack's operations go through it), callers still hold old tokens.
    let i = 0;
    const statuses = await underTraffic(
      () => ((i += 1) % 2 === 0 ? gateway(OLD.SERVICE_TOKEN_SECRET) : subgraph(OLD.PRINCIPAL_SECRET)),
      async () => {
        for (let n = 0; n < 20; n++) {
          expect(await gateway(NEW.SERVICE_TOKEN_SECRET)).toBe(200);
          expect(await subgraph(NEW.PRINCIPAL_SECRET)).toBe(200);
        }
      },
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await subgraph('rot-unknown-principal-secret-22')).toBe(401);
    expect(await gateway('rot-unknown-service-secret-222')).not.toBe(200);
  });
});
