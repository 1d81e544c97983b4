import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { OPERATOR_ROLES, type OperatorRole } from '@lib/auth/operator-roles';
import { OPERATOR_TOKEN_MAX_TTL_SECS, signOperatorToken } from '@lib/auth/operator-token';
import { loadConfig } from '@lib/config/config';
import { openDatabaseTarget } from '@lib/db/database-target';
import {
  changeMerchantStatus,
  createBank,
  createPartner,
  grantPartnerAccess,
  issuePartnerCredential,
  revokePartnerCredential,
  ungrantPartnerAccess,
  listWebhookDeliveries,
  listOutbox,
  migrateAll,
  onboardMerchant,
  redeliverWebhook,
  seedDemo,
  seedReference,
  setBankWebhook,
} from './database-tasks';

/**
 * Operator command line: `npm run ops -- <command> [options]`, JSON on stdout. Works against the database
 * of a running `npm start` (same DATA_DIR or DATABASE_URL) while it runs.
 */
type Options = Record<string, string | string[] | boolean | undefined>;
/** `noDatabase`: the command needs no database (none is opened or started for it). */
const COMMANDS: Record<string, { help: string; noDatabase?: boolean; run: (adminUrl: string, options: Options) => Promise<unknown> }> = {
  'db:migrate': {
    help: 'create the subgraph roles and schemas, apply pending migrations',
    run: (adminUrl) => migrateAll(loadConfig(), adminUrl),
  },
  'seed:reference': {
    help: 'import regions, postal codes and coordinates (--geo-csv FILE, default the shipped sample), business data, legal documents',
    run: (adminUrl, options) => seedReference(loadConfig(), adminUrl, options['geo-csv'] as string | undefined),
  },
  'bank:create': {
    help: 'onboard a bank: --code C --name N [--tier tier1|external]; prints its lookup and event keys (secrets shown once)',
    run: async (adminUrl, o) => {
      const tier = (o.tier as string | undefined) ?? 'external';
      if (tier !== 'tier1' && tier !== 'external') throw new Error('--tier must be tier1 or external');
      const bank = await createBank(loadConfig(), adminUrl, { code: required(o, 'code'), name: required(o, 'name'), tier });
      const { bank_id: _id, tier: _tier, ...keys } = bank;
      return keys;
    },
  },
  'merchant:create': {
    help: 'onboard an active, KYC-verified merchant: --name N --bank C --nmid ID [--nmid ID …] [--category MCC] [--referral CODE] [--outlets N]',
    run: (adminUrl, o) =>
      onboardMerchant(loadConfig(), adminUrl, {
        name: required(o, 'name'),
        bankCode: required(o, 'bank'),
        nmids: (o.nmid as string[] | undefined) ?? [],
        outlets: o.outlets ? Number(o.outlets) : 1,
        categoryCode: o.category as string | undefined,
        referralCode: o.referral as string | undefined,
      }),
  },
  'seed:demo': {
    help: 'write the demo merchant, outlets, transactions and categories (idempotent)',
    run: (adminUrl) => seedDemo(loadConfig(), adminUrl),
  },
  'bank:webhook': {
    help: "set a bank's lifecycle webhook endpoint: --bank C --url U (https in production); prints a new signing secret (shown once)",
    run: (adminUrl, o) => setBankWebhook(loadConfig(), adminUrl, { bankCode: required(o, 'bank'), url: required(o, 'url') }),
  },
  'webhook:deliveries': {
    help: 'list lifecycle webhook deliveries, newest first: [--status pending|delivered|failed] [--bank C] [--limit N (default 50, max 500)]',
    run: (adminUrl, o) =>
      listWebhookDeliveries(loadConfig(), adminUrl, {
        status: o.status as string | undefined,
        bankCode: o.bank as string | undefined,
        limit: o.limit === undefined ? undefined : Number(o.limit),
      }),
  },
  'webhook:redeliver': {
    help: 'send a delivery again now (its attempts are kept): --id EVENT_ID',
    run: (adminUrl, o) =>
      redeliverWebhook(loadConfig(), adminUrl, required(o, 'id'), {
        info: (fields, msg) =>
          process.stderr.write(JSON.stringify({ level: 'info', time: Date.now(), service: 'ops', ...fields, msg }) + '\n'),
      }),
  },
  'merchant:status': {
    help: 'move a merchant along its lifecycle: --id ID --to active|suspended|deleted [--reason R] (required to suspend or delete)',
    run: (adminUrl, o) =>
      changeMerchantStatus(loadConfig(), adminUrl, {
        merchantId: required(o, 'id'),
        targetStatus: required(o, 'to'),
        reason: o.reason as string | undefined,
      }),
  },
  'dev:outbox': {
    help: 'recorded notifications, newest first (the log provider delivers OTPs here in development): [--phone P] [--limit N (default 50, max 500)]',
    run: (adminUrl, o) =>
      listOutbox(loadConfig(), adminUrl, {
        phone: o.phone as string | undefined,
        limit: o.limit === undefined ? undefined : Number(o.limit),
      }),
  },
  'partner:create': {
    help: 'onboard a partner: --code C --name N --referral-code R (merchants registered with R are its referrals)',
    run: (adminUrl, o) =>
      createPartner(loadConfig(), adminUrl, {
        code: required(o, 'code'),
        name: required(o, 'name'),
        referralCode: required(o, 'referral-code'),
      }),
  },
  'partner:credential': {
    help: 'issue a partner credential: --partner C --contract A|B --scopes merchant.read,transaction.read,… [--auth jwt|hmac] [--rate N per minute, default 60] [--outlets] [--name N]; the secret is shown once',
    run: (adminUrl, o) => {
      const partnerCode = required(o, 'partner');
      const contract = required(o, 'contract');
      const mode = (o.auth as string | undefined) ?? 'jwt';
      if (contract !== 'A' && contract !== 'B') throw new Error('--contract must be A or B');
      if (mode !== 'jwt' && mode !== 'hmac') throw new Error('--auth must be jwt or hmac');
      return issuePartnerCredential(loadConfig(), adminUrl, {
        partnerCode,
        name: (o.name as string | undefined) ?? `${partnerCode} contract ${contract} (${new Date().toISOString().slice(0, 10)})`,
        contract,
        mode,
        scopes: required(o, 'scopes').split(','),
        outletsEnabled: o['outlets-enabled'] === true,
        ...(o.rate === undefined ? {} : { rateLimitPerMinute: positiveInteger(o.rate, '--rate') }),
      });
    },
  },
  'partner:revoke': {
    help: 'revoke a partner credential: --key K (its tokens stop within PARTNER_CREDENTIAL_CACHE_MS, at most 60 s)',
    run: (adminUrl, o) => revokePartnerCredential(loadConfig(), adminUrl, required(o, 'key')),
  },
  'partner:grant': {
    help: "put a merchant in a partner's scope: --partner C --merchant ID --type consent|assignment",
    run: (adminUrl, o) => grantPartnerAccess(loadConfig(), adminUrl, partnerAccessArgs(o)),
  },
  'operator:token': {
    help: `a development operator token for the gateway: --name N --roles ${OPERATOR_ROLES.join(',')} [--ttl secs, default 3600]; refused in production`,
    noDatabase: true,
    run: async (_adminUrl, o) => {
      const config = loadConfig();
      if (config.isProduction)
        throw new Error('operator:token is for development: production operators sign in through the identity provider');
      const roles = required(o, 'roles')
        .split(',')
        .map((r) => r.trim());
      const unknown = roles.filter((r) => !(OPERATOR_ROLES as readonly string[]).includes(r));
      if (unknown.length > 0) throw new Error(`unknown roles: ${unknown.join(', ')} (known: ${OPERATOR_ROLES.join(', ')})`);
      const ttlSecs = o.ttl === undefined ? 3600 : positiveInteger(o.ttl, '--ttl');
      if (ttlSecs > OPERATOR_TOKEN_MAX_TTL_SECS) throw new Error(`--ttl must be at most ${OPERATOR_TOKEN_MAX_TTL_SECS}`);
      const token = await signOperatorToken({ name: required(o, 'name'), roles: roles as OperatorRole[], ttlSecs }, config.operatorTokens);
      return { token, authorization: `Bearer ${token}`, roles, expires_in_secs: ttlSecs };
    },
  },
  'partner:ungrant': {
    help: 'end a live grant (e.g. a withdrawn consent): --partner C --merchant ID --type consent|assignment|referral',
    run: (adminUrl, o) => ungrantPartnerAccess(loadConfig(), adminUrl, partnerAccessArgs(o)),
  },
};

function partnerAccessArgs(o: Options) {
  const type = required(o, 'type');
  if (type !== 'consent' && type !== 'assignment' && type !== 'referral') throw new Error('--type must be consent, assignment or referral');
  return { partnerCode: required(o, 'partner'), merchantId: required(o, 'merchant'), type } as const;
}

function positiveInteger(value: Options[string], flag: string): number {
  const n = typeof value === 'string' && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw new Error(`${flag} must be a positive integer`);
  return n;
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || !value) throw new Error(`--${name} is required`);
  return value;
}

/**
 * `--outlets` is a count for merchant:create and a switch for partner:credential (the issue's interface); one
 * parser serves every command, so the switch is renamed before parsing.
 */
function normalisedArgs(argv: string[]): string[] {
  return argv[0] === 'partner:credential' ? argv.map((arg) => (arg === '--outlets' ? '--outlets-enabled' : arg)) : argv;
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    args: normalisedArgs(process.argv.slice(2)),
    allowPositionals: true,
    options: {
      'geo-csv': { type: 'string' },
      code: { type: 'string' },
      name: { type: 'string' },
      rate: { type: 'string' },
      tier: { type: 'string' },
      bank: { type: 'string' },
      nmid: { type: 'string', multiple: true },
      category: { type: 'string' },
      referral: { type: 'string' },
      outlets: { type: 'string' },
      url: { type: 'string' },
      status: { type: 'string' },
      limit: { type: 'string' },
      id: { type: 'string' },
      to: { type: 'string' },
      reason: { type: 'string' },
      'referral-code': { type: 'string' },
      partner: { type: 'string' },
      contract: { type: 'string' },
      scopes: { type: 'string' },
      auth: { type: 'string' },
      'outlets-enabled': { type: 'boolean' },
      key: { type: 'string' },
      merchant: { type: 'string' },
      type: { type: 'string' },
      phone: { type: 'string' },
      roles: { type: 'string' },
      ttl: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const command = COMMANDS[positionals[0] ?? ''];
  if (!command || values.help) {
    const usage = Object.fromEntries(Object.entries(COMMANDS).map(([name, c]) => [name, c.help]));
    process.stdout.write(JSON.stringify({ usage: 'npm run ops -- <command> [options]', commands: usage }, null, 2) + '\n');
    return command || values.help ? 0 : 2;
  }
  if (command.noDatabase) {
    process.stdout.write(JSON.stringify({ command: positionals[0], result: await command.run('', values) }, null, 2) + '\n');
    return 0;
  }
  const target = await openDatabaseTarget(loadConfig());
  try {
    const result = await command.run(target.adminUrl, values);
    process.stdout.write(JSON.stringify({ command: positionals[0], database: target.source, result }, null, 2) + '\n');
    return 0;
  } finally {
    await target.embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stdout.write(JSON.stringify({ error: error.message }) + '\n');
    process.exit(1);
  },
);
