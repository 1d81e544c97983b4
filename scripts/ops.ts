import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { closest, distance } from 'fastest-levenshtein';
import { OPERATOR_ROLES, OPERATOR_TOKEN_MAX_TTL_SECS, type OperatorRole, signOperatorToken } from '@lib/auth/operator-token';
import { type Config, loadConfig } from '@lib/config/config';
import { openDatabaseTarget } from '@lib/db/database-target';
import { Client } from 'pg';
import type * as DatabaseTasks from './database-tasks';
import { MERCHANT_REFERENCE, resolveMerchant, showMerchant } from './merchant-reference';
import { COLOURS, PLAIN, humanText } from './ops-output';
import type * as GatewayTasks from './gateway-tasks';
import type { PartnerAccessType } from '@subgraphs/merchant/src/modules/partner/partner.entity';
import {
  ARCHIVE_MIN_ONLINE_MONTHS,
  ArchiveRefusedError,
  checkArchiveBefore,
} from '@subgraphs/transaction/src/modules/partition/partition.service';
import { UNMATCHED_REASONS } from '@subgraphs/transaction/src/modules/qris-payment/qris-payment.service';
import type { RerateInput } from '@subgraphs/transaction/src/modules/mdr/fee-guard.service';
import { QRIS_CRITERIA } from '@lib/domain/qris/qris-payload';
import { SANDBOX_EVENT_ID_PATTERN, SANDBOX_MAX_AMOUNT } from '@rest-adapters/core/routes/internal/sandbox-payment-events/schema';

/**
 * Operator command line: `npm run ops -- <command> [options]`. A result is JSON on stdout (exit 0); an error is
 * one JSON object on stderr, `{"error":{"code","message",…}}`, with exit 2 for a usage mistake (unknown command or
 * option, missing or invalid value: nothing was done) and 1 for a failed command. Works against the database of a
 * running `npm start` (same DATA_DIR or DATABASE_URL) while it runs.
 */

interface OptionSpec {
  type: 'string' | 'boolean';
  description: string;
  required?: boolean;
  multiple?: boolean;
  /** The allowed values (checked before the command runs). */
  values?: readonly string[];
  /** A positive integer (at most 6 digits). */
  integer?: boolean;
  default?: string;
  /** A merchant by its id, code (MRC-…) or an outlet's NMID: replaced by the merchant's id before the command runs. */
  merchant?: boolean;
}
type Values = Record<string, string | string[] | boolean | undefined>;
interface Command {
  summary: string;
  options: Record<string, OptionSpec>;
  /** The command needs no database (none is opened or started for it). */
  noDatabase?: boolean;
  run: (adminUrl: string, values: Values, config: Config) => Promise<unknown>;
}

/** A mistake in the command line: nothing was done (exit 2). */
class UsageError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The database tasks load MikroORM and every subgraph's services (about 2 s), the gateway tasks the REST adapters'
 * operations (about 1 s): loaded by the commands that use them, so that the others answer at once.
 */
let database: typeof DatabaseTasks | undefined;
let gateway: typeof GatewayTasks | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tasks = () => (database ??= require('./database-tasks') as typeof DatabaseTasks);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const gatewayTasks = () => (gateway ??= require('./gateway-tasks') as typeof GatewayTasks);

const LIMIT: OptionSpec = { type: 'string', integer: true, description: 'rows to list, at most 500', default: '50' };
const DELIVERY: OptionSpec = { type: 'string', required: true, description: 'the delivery’s event id' };
/** Operator log lines of a command (who did what), as JSON on stderr. */
const stderrLog = {
  info: (fields: object, msg: string) =>
    process.stderr.write(JSON.stringify({ level: 'info', time: Date.now(), service: 'ops', ...fields, msg }) + '\n'),
};
const ACCESS_OPTIONS: Record<string, OptionSpec> = {
  partner: { type: 'string', required: true, description: 'partner code' },
  merchant: { type: 'string', required: true, merchant: true, description: MERCHANT_REFERENCE },
};

export const COMMANDS: Record<string, Command> = {
  'db:migrate': {
    summary: 'create the subgraph roles and schemas, apply pending migrations',
    options: {},
    run: (adminUrl, _o, config) => tasks().migrateAll(config, adminUrl),
  },
  'seed:reference': {
    summary: 'import regions, postal codes and coordinates, business data, legal documents',
    options: { 'geo-csv': { type: 'string', description: 'regions CSV to import (default: the shipped sample)' } },
    run: (adminUrl, o, config) => tasks().seedReference(config, adminUrl, o['geo-csv'] as string | undefined),
  },
  'seed:demo': {
    summary: 'write the demo merchant, outlets, transactions and categories (idempotent)',
    options: {},
    run: (adminUrl, _o, config) => tasks().seedDemo(config, adminUrl),
  },
  'bank:create': {
    summary:
      'onboard a bank; prints its lookup and event keys (secrets shown once). --sandbox: a sandbox bank and its first sandbox merchant',
    options: {
      code: { type: 'string', required: true, description: 'bank code' },
      name: { type: 'string', required: true, description: 'bank name' },
      tier: { type: 'string', values: ['tier1', 'external'], default: 'external', description: 'bank tier' },
      sandbox: {
        type: 'boolean',
        description:
          'a sandbox bank (external): its keys reach only sandbox merchants, starting with one created now (docs/decisions/0015-demo-data-and-sandbox.md)',
      },
      'merchant-name': { type: 'string', description: 'with --sandbox: name of its sandbox merchant' },
      outlets: {
        type: 'string',
        integer: true,
        description: 'with --sandbox: outlets of its sandbox merchant, each with a sandbox NMID (default 1)',
      },
      'owner-phone': {
        type: 'string',
        description: 'with --sandbox: an app user’s phone that owns the sandbox merchant (to log in to it)',
      },
    },
    run: async (adminUrl, o, config) => {
      const tier = o.tier as 'tier1' | 'external';
      if (!o.sandbox) {
        const given = ['merchant-name', 'outlets', 'owner-phone'].filter((option) => o[option] !== undefined);
        if (given.length > 0) throw new UsageError('invalid_option', `--${given[0]} needs --sandbox`);
        const {
          bank_id: _id,
          tier: _tier,
          sandbox: _sandbox,
          ...keys
        } = await tasks().createBank(config, adminUrl, { code: str(o.code), name: str(o.name), tier });
        return keys;
      }
      if (tier !== 'external') throw new UsageError('invalid_option', '--sandbox banks are external: drop --tier tier1');
      const {
        bank_id: _id,
        tier: _tier,
        ...issued
      } = await tasks().createSandboxBank(config, adminUrl, {
        code: str(o.code),
        name: str(o.name),
        merchantName: o['merchant-name'] as string | undefined,
        outlets: Number(o.outlets ?? 1),
        ownerPhone: o['owner-phone'] as string | undefined,
      });
      return issued;
    },
  },
  'secrets:reencrypt': {
    summary:
      'seal every stored secret (bank keys, webhook and HMAC partner secrets) under the current SECRETS_ENCRYPTION_KEY; prints counts per table (docs/operations.md, "Rotating secrets")',
    options: {},
    run: (adminUrl, _o, config) => tasks().reencryptSecrets(config, adminUrl),
  },
  'bank:webhook': {
    summary: "set a bank's lifecycle webhook endpoint; prints a new signing secret (shown once)",
    options: {
      bank: { type: 'string', required: true, description: 'bank code' },
      url: {
        type: 'string',
        required: true,
        description: 'endpoint URL: https in production, never an internal address (docs/decisions/0031-webhooks-and-job-queue.md)',
      },
    },
    run: (adminUrl, o, config) => tasks().setBankWebhook(config, adminUrl, { bankCode: str(o.bank), url: str(o.url) }),
  },
  'merchant:create': {
    summary: 'onboard an active, KYC-verified merchant',
    options: {
      name: { type: 'string', required: true, description: 'merchant name' },
      bank: { type: 'string', required: true, description: 'code of the bank that issues its NMIDs' },
      nmid: { type: 'string', multiple: true, description: 'an NMID for an outlet (repeat for several)' },
      category: { type: 'string', description: 'merchant category code (MCC)' },
      scale: {
        type: 'string',
        values: ['micro', 'small', 'medium', 'large'],
        description: 'business scale: the QRIS criteria its MDR depends on (none: regular)',
      },
      referral: { type: 'string', description: "a partner's referral code" },
      outlets: { type: 'string', integer: true, default: '1', description: 'number of outlets' },
      'owner-phone': { type: 'string', description: 'an app user’s phone that owns the merchant (created when unknown)' },
    },
    run: (adminUrl, o, config) =>
      tasks().onboardMerchant(config, adminUrl, {
        name: str(o.name),
        bankCode: str(o.bank),
        nmids: (o.nmid as string[] | undefined) ?? [],
        outlets: Number(o.outlets),
        categoryCode: o.category as string | undefined,
        businessScaleCode: o.scale as string | undefined,
        referralCode: o.referral as string | undefined,
        ownerPhone: o['owner-phone'] as string | undefined,
      }),
  },
  'merchant:status': {
    summary: 'move a merchant along its lifecycle',
    options: {
      id: { type: 'string', required: true, merchant: true, description: MERCHANT_REFERENCE },
      to: { type: 'string', required: true, values: ['active', 'suspended', 'deleted'], description: 'target status' },
      reason: { type: 'string', description: 'required to suspend or delete' },
    },
    run: (adminUrl, o, config) =>
      tasks().changeMerchantStatus(config, adminUrl, {
        merchantId: str(o.id),
        targetStatus: str(o.to),
        reason: o.reason as string | undefined,
      }),
  },
  'merchant:suspensions-due': {
    summary:
      'active merchants the daily run will suspend (kyc_expired, inactivity) within --days, overdue ones included, the earliest first: due time, warning, when it suspends',
    options: {
      days: { type: 'string', integer: true, description: 'days ahead (default SUSPENSION_WARNING_DAYS), at most 366' },
      limit: LIMIT,
    },
    run: (adminUrl, o, config) => {
      const days = o.days === undefined ? config.suspension.warningDays : Number(o.days);
      if (days > 366) throw new UsageError('invalid_option', '--days must be at most 366');
      return tasks().listSuspensionsDue(config, adminUrl, { withinDays: days, limit: Number(o.limit) });
    },
  },
  'merchant:kyc-renew': {
    summary:
      "renew a merchant's KYC until --expires (an expired KYC is verified again; a merchant suspended for kyc_expired comes back, merchant.reactivated)",
    options: {
      merchant: { type: 'string', required: true, merchant: true, description: MERCHANT_REFERENCE },
      expires: {
        type: 'string',
        required: true,
        description:
          'the new expiry: YYYY-MM-DD (the start of that day, Asia/Makassar) or an ISO 8601 instant; in the future, at most 10 years ahead',
      },
    },
    run: (adminUrl, o, config) => {
      const given = str(o.expires);
      const expiresAt = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(given) ? new Date(`${given}T00:00:00+08:00`) : instant(given, '--expires')!;
      if (Number.isNaN(expiresAt.getTime())) throw new UsageError('invalid_option', '--expires must be YYYY-MM-DD or an ISO 8601 instant');
      return tasks().renewMerchantKyc(config, adminUrl, { merchantId: str(o.merchant), expiresAt });
    },
  },
  'merchant:show': {
    summary: 'one merchant: code, name, status, bank and its outlets with their NMIDs',
    options: { merchant: { type: 'string', required: true, merchant: true, description: MERCHANT_REFERENCE } },
    run: (adminUrl, o) => withClient(adminUrl, (db) => showMerchant(db, str(o.merchant))),
  },
  'webhook:deliveries': {
    summary: 'list lifecycle webhook deliveries, newest first',
    options: {
      status: { type: 'string', values: ['pending', 'held', 'delivered', 'failed'], description: 'only deliveries in this state' },
      bank: { type: 'string', description: 'only this bank (code)' },
      limit: LIMIT,
    },
    run: (adminUrl, o, config) =>
      tasks().listWebhookDeliveries(config, adminUrl, {
        status: o.status as string | undefined,
        bankCode: o.bank as string | undefined,
        limit: Number(o.limit),
      }),
  },
  'webhook:attempts': {
    summary: 'every attempt of a delivery: time, kind, HTTP status or error, latency, the answer’s first KiB',
    options: { delivery: DELIVERY },
    run: (adminUrl, o, config) => tasks().listWebhookAttempts(config, adminUrl, str(o.delivery)),
  },
  'webhook:redeliver': {
    summary: 'send a delivery again now: one manual attempt, the automatic schedule is not used up',
    options: { delivery: DELIVERY },
    run: (adminUrl, o, config) => tasks().redeliverWebhook(config, adminUrl, str(o.delivery), stderrLog),
  },
  'webhook:test': {
    summary: "send a signed webhook.test event to a bank's endpoint now (enabled or not); prints the outcome",
    options: { bank: { type: 'string', required: true, description: 'bank code' } },
    run: (adminUrl, o, config) => tasks().sendWebhookTest(config, adminUrl, str(o.bank), stderrLog),
  },
  'webhook:endpoint': {
    summary: "disable a bank's webhook endpoint (deliveries held) or enable it (held deliveries resume)",
    options: {
      bank: { type: 'string', required: true, description: 'bank code' },
      disable: { type: 'boolean', description: 'hold its deliveries' },
      enable: { type: 'boolean', description: 'resume its held deliveries now' },
      reason: { type: 'string', description: 'why it is disabled' },
    },
    run: (adminUrl, o, config) => {
      if (o.disable === o.enable) throw new UsageError('invalid_option', 'give exactly one of --disable and --enable');
      return tasks().setWebhookEndpointEnabled(
        config,
        adminUrl,
        { bankCode: str(o.bank), enabled: o.enable === true, reason: o.reason as string | undefined },
        stderrLog,
      );
    },
  },
  'dev:outbox': {
    summary: 'recorded notifications, newest first (the log provider delivers OTPs here in development)',
    options: { phone: { type: 'string', description: 'only messages to this phone' }, limit: LIMIT },
    run: (adminUrl, o, config) => tasks().listOutbox(config, adminUrl, { phone: o.phone as string | undefined, limit: Number(o.limit) }),
  },
  'partner:create': {
    summary: 'onboard a partner (merchants registered with its referral code are its referrals)',
    options: {
      code: { type: 'string', required: true, description: 'partner code' },
      name: { type: 'string', required: true, description: 'partner name' },
      'referral-code': { type: 'string', required: true, description: 'its referral code' },
      sandbox: {
        type: 'boolean',
        description: 'a sandbox partner: its credentials reach only sandbox merchants (docs/decisions/0015-demo-data-and-sandbox.md)',
      },
    },
    run: (adminUrl, o, config) =>
      tasks().createPartner(config, adminUrl, {
        code: str(o.code),
        name: str(o.name),
        referralCode: str(o['referral-code']),
        sandbox: o.sandbox === true,
      }),
  },
  'partner:credential': {
    summary: 'issue a partner credential; the secret is shown once',
    options: {
      partner: { type: 'string', required: true, description: 'partner code' },
      contract: { type: 'string', required: true, values: ['A', 'B'], description: 'response contract' },
      scopes: { type: 'string', required: true, description: 'comma-separated, e.g. merchant.read,transaction.read' },
      auth: { type: 'string', values: ['jwt', 'hmac'], default: 'jwt', description: 'authentication mode' },
      rate: { type: 'string', integer: true, default: '60', description: 'requests per minute' },
      outlets: { type: 'boolean', description: 'enable the outlet endpoints' },
      name: { type: 'string', description: 'credential name (default: partner, contract and date)' },
    },
    run: (adminUrl, o, config) => {
      const partnerCode = str(o.partner);
      const contract = o.contract as 'A' | 'B';
      return tasks().issuePartnerCredential(config, adminUrl, {
        partnerCode,
        name: (o.name as string | undefined) ?? `${partnerCode} contract ${contract} (${new Date().toISOString().slice(0, 10)})`,
        contract,
        mode: o.auth as 'jwt' | 'hmac',
        scopes: str(o.scopes).split(','),
        outletsEnabled: o.outlets === true,
        rateLimitPerMinute: Number(o.rate),
      });
    },
  },
  'partner:revoke': {
    summary: 'revoke a partner credential (its tokens stop within PARTNER_CREDENTIAL_CACHE_MS, at most 60 s)',
    options: { key: { type: 'string', required: true, description: 'credential key' } },
    run: (adminUrl, o, config) => tasks().revokePartnerCredential(config, adminUrl, str(o.key)),
  },
  'partner:grant': {
    summary: "put a merchant in a partner's scope",
    options: { ...ACCESS_OPTIONS, type: { type: 'string', required: true, values: ['consent', 'assignment'], description: 'access type' } },
    run: (adminUrl, o, config) => tasks().grantPartnerAccess(config, adminUrl, accessArgs(o)),
  },
  'partner:ungrant': {
    summary: 'end a live grant (e.g. a withdrawn consent)',
    options: {
      ...ACCESS_OPTIONS,
      type: { type: 'string', required: true, values: ['consent', 'assignment', 'referral'], description: 'access type' },
    },
    run: (adminUrl, o, config) => tasks().ungrantPartnerAccess(config, adminUrl, accessArgs(o)),
  },
  'qris:unmatched': {
    summary: 'bank payments that named one of our bill numbers but settled no dynamic QRIS payment, newest first',
    options: {
      merchant: { type: 'string', merchant: true, description: `only this merchant: ${MERCHANT_REFERENCE}` },
      outlet: { type: 'string', description: 'only this outlet (UUID)' },
      reason: { type: 'string', values: UNMATCHED_REASONS, description: 'only this reason' },
      from: { type: 'string', description: 'paid at or after this instant (ISO 8601)' },
      before: { type: 'string', description: 'paid before this instant (ISO 8601)' },
      after: { type: 'string', description: 'next_cursor of the previous page' },
      limit: LIMIT,
    },
    run: async (adminUrl, o, config) => {
      const page = await tasks().listQrisUnmatched(config, adminUrl, {
        merchantId: o.merchant as string | undefined,
        outletId: o.outlet as string | undefined,
        reason: o.reason as string | undefined,
        from: instant(o.from, '--from'),
        before: instant(o.before, '--before'),
        after: o.after as string | undefined,
        first: Number(o.limit),
      });
      return { items: page.items, next_cursor: page.nextCursor };
    },
  },
  'fees:rerate': {
    summary:
      "re-rate a merchant's transactions of a period by the MDR policy in force at each one's time (rate, fee and net; nothing else changes), audited",
    options: {
      merchant: { type: 'string', required: true, merchant: true, description: MERCHANT_REFERENCE },
      from: { type: 'string', required: true, description: 'the period’s start, inclusive (ISO 8601 instant)' },
      before: {
        type: 'string',
        required: true,
        description: 'the period’s end, exclusive (ISO 8601 instant); at most 366 days after --from',
      },
      reason: { type: 'string', required: true, description: 'why (kept in the audit)' },
      by: { type: 'string', required: true, description: 'who asks (kept in the audit)' },
      criteria: {
        type: 'string',
        values: QRIS_CRITERIA,
        description: "rate by this QRIS criteria (default: the merchant's business scale now)",
      },
    },
    run: (adminUrl, o, config) =>
      tasks().rerateMdr(
        config,
        adminUrl,
        {
          merchantId: str(o.merchant),
          from: instant(o.from, '--from')!,
          before: instant(o.before, '--before')!,
          reason: str(o.reason),
          requestedBy: str(o.by),
          criteria: o.criteria as RerateInput['criteria'],
        },
        stderrLog,
      ),
  },
  'fees:overcharges': {
    summary:
      'the merchants the banks charged more MDR than the policy in a month, highest first; with --merchant, its month and flagged settlements',
    options: {
      month: { type: 'string', required: true, description: 'YYYY-MM (Asia/Jakarta)' },
      merchant: { type: 'string', merchant: true, description: `only this merchant: ${MERCHANT_REFERENCE}` },
      limit: LIMIT,
    },
    run: (adminUrl, o, config) => {
      if (!/^[0-9]{4}-(0[1-9]|1[0-2])$/.test(str(o.month))) throw new UsageError('invalid_option', '--month must be YYYY-MM');
      return tasks().listMdrOvercharges(config, adminUrl, {
        month: str(o.month),
        merchantId: o.merchant as string | undefined,
        first: Number(o.limit),
      });
    },
  },
  'reconciliation:run': {
    summary:
      'reconcile every outlet of one business day now (settlements, payments, the point of sale’s QRIS orders; docs/decisions/0242-daily-reconciliation.md) and print how long it took; the transaction process also runs the day before at RECONCILIATION_RUN_AT',
    options: {
      day: { type: 'string', required: true, description: 'the business day (YYYY-MM-DD, Asia/Jakarta)' },
    },
    run: (adminUrl, o, config) => {
      const day = o.day as string;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
        throw new UsageError('invalid_option', '--day must be a date, YYYY-MM-DD');
      return tasks().runReconciliation(config, adminUrl, day);
    },
  },
  'feed:prune': {
    summary: 'delete payment feed rows older than the retention (PAYMENT_FEED_RETENTION_DAYS); the transaction process also does it hourly',
    options: { days: { type: 'string', integer: true, description: 'keep this many days instead (at least 2)' } },
    run: (adminUrl, o, config) =>
      tasks().prunePaymentFeed(config, adminUrl, o.days === undefined ? config.paymentFeed.retentionDays : Number(o.days)),
  },
  'partitions:ensure': {
    summary:
      'make sure transactions and payment events have monthly partitions up to PARTITION_MONTHS_AHEAD months ahead (and back to --from); the transaction process also does it',
    options: {
      'months-ahead': { type: 'string', integer: true, description: 'months beyond the current one instead (at most 24)' },
      from: { type: 'string', description: 'also every month back to this instant’s (ISO 8601), e.g. before loading history' },
    },
    run: (adminUrl, o, config) => {
      const monthsAhead = o['months-ahead'] === undefined ? config.partitions.monthsAhead : Number(o['months-ahead']);
      if (monthsAhead < 1 || monthsAhead > 24) throw new UsageError('invalid_option', '--months-ahead must be 1 to 24');
      return tasks().ensureMonthlyPartitions(config, adminUrl, { monthsAhead, from: instant(o.from, '--from') });
    },
  },
  'bank-view:sync': {
    summary:
      'bring the copies of what banks see up to date now: merchants in the outlet subgraph, payment targets in the transaction subgraph (their pending jobs; the outlet and transaction processes also run them); answers the jobs still pending, and the last error of those that failed',
    options: { all: { type: 'boolean', description: 'enqueue every merchant and its outlets again first: rebuilds the copies' } },
    run: (adminUrl, o, config) => tasks().syncBankView(config, adminUrl, { all: o.all === true }),
  },
  'partitions:list': {
    summary:
      'the partitions of transactions and payment events, oldest first, with their bounds and estimated rows, and the months archived',
    options: {},
    run: (adminUrl, _o, config) => tasks().listMonthlyPartitions(config, adminUrl),
  },
  'partitions:archive': {
    summary: `move the months of transactions and payment events before --before to the archive schema (kept, not dropped; their keys stay, so replays are still answered); the current month and the ${ARCHIVE_MIN_ONLINE_MONTHS} before it stay online`,
    options: {
      before: {
        type: 'string',
        required: true,
        description: `archive every month before this one (YYYY-MM, Asia/Jakarta), at most the current month minus ${ARCHIVE_MIN_ONLINE_MONTHS}`,
      },
      'dry-run': { type: 'boolean', description: 'only show what would be archived and the history partition’s new bounds' },
    },
    run: (adminUrl, o, config) => {
      const before = str(o.before);
      try {
        checkArchiveBefore(before, new Date());
      } catch (error) {
        if (error instanceof ArchiveRefusedError) throw new UsageError('invalid_option', error.message);
        throw error;
      }
      return tasks().archiveMonthlyPartitions(config, adminUrl, { before, dryRun: o['dry-run'] === true });
    },
  },
  'sandbox:simulate-payment': {
    summary: "simulate a bank's payment event to a sandbox NMID through the running system (refused for a live NMID)",
    noDatabase: true,
    options: {
      nmid: { type: 'string', required: true, description: 'NMID of a sandbox outlet (ID99 followed by 13 digits)' },
      amount: { type: 'string', required: true, description: `whole rupiah, 1 to ${SANDBOX_MAX_AMOUNT}` },
      'reference-number': { type: 'string', description: 'the bill number of a pending dynamic QRIS of the outlet (marks it paid)' },
      'event-id': {
        type: 'string',
        description: 'the event id (default: a new one); the same id again is a replay, never a second payment',
      },
      tid: { type: 'string', description: 'a terminal id of the outlet' },
    },
    run: async (_adminUrl, o, config) => {
      const amount = str(o.amount);
      if (!/^[1-9][0-9]{0,7}$/.test(amount) || Number(amount) > SANDBOX_MAX_AMOUNT)
        throw new UsageError('invalid_option', `--amount must be whole rupiah from 1 to ${SANDBOX_MAX_AMOUNT}`);
      if (!/^ID[0-9]{10,15}$/.test(str(o.nmid))) throw new UsageError('invalid_option', '--nmid must be "ID" followed by 10 to 15 digits');
      const eventId = o['event-id'] as string | undefined;
      if (eventId !== undefined && !new RegExp(SANDBOX_EVENT_ID_PATTERN).test(eventId))
        throw new UsageError('invalid_option', '--event-id must be 1 to 56 letters, digits, ".", "_", ":" or "-"');
      const reference = o['reference-number'] as string | undefined;
      if (reference !== undefined && reference.length > 64)
        throw new UsageError('invalid_option', '--reference-number must be at most 64 characters');
      const tid = o.tid as string | undefined;
      if (tid !== undefined && tid.length > 32) throw new UsageError('invalid_option', '--tid must be at most 32 characters');
      const outcome = await gatewayTasks().simulateSandboxPaymentViaGateway(config, {
        nmid: str(o.nmid),
        amount: Number(amount),
        ...(reference ? { reference_number: reference } : {}),
        ...(eventId ? { event_id: eventId } : {}),
        ...(tid ? { tid } : {}),
      });
      if (outcome.status === 422) {
        const { error, code, ...details } = outcome.body;
        throw new (gatewayTasks().GatewayTaskError)(code, 422, error, details);
      }
      return outcome.body;
    },
  },
  'operator:token': {
    summary: 'a development operator token for the gateway; refused in production',
    noDatabase: true,
    options: {
      name: { type: 'string', required: true, description: 'operator name' },
      roles: { type: 'string', required: true, description: `comma-separated, of: ${OPERATOR_ROLES.join(', ')}` },
      ttl: { type: 'string', integer: true, default: '3600', description: `lifetime in seconds, at most ${OPERATOR_TOKEN_MAX_TTL_SECS}` },
    },
    run: async (_adminUrl, o, config) => {
      if (config.isProduction)
        throw new Error('operator:token is for development: production operators sign in through the identity provider');
      const roles = str(o.roles)
        .split(',')
        .map((r) => r.trim());
      const unknown = roles.filter((r) => !(OPERATOR_ROLES as readonly string[]).includes(r));
      if (unknown.length > 0)
        throw new UsageError('invalid_option', `--roles: unknown roles ${unknown.join(', ')}`, { allowed: OPERATOR_ROLES });
      const ttlSecs = Number(o.ttl);
      if (ttlSecs > OPERATOR_TOKEN_MAX_TTL_SECS)
        throw new UsageError('invalid_option', `--ttl must be at most ${OPERATOR_TOKEN_MAX_TTL_SECS}`);
      const token = await signOperatorToken({ name: str(o.name), roles: roles as OperatorRole[], ttlSecs }, config.operatorTokens);
      return { token, authorization: `Bearer ${token}`, roles, expires_in_secs: ttlSecs };
    },
  },
};

/** One plain connection for a command's reads (no ORM to load). */
async function withClient<T>(adminUrl: string, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: adminUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** Replaces each merchant option's value (id, MRC-… code or NMID) by the merchant's id; an unknown one is a usage error. */
async function resolveMerchantOptions(command: Command, values: Values, adminUrl: string): Promise<void> {
  const options = Object.entries(command.options).filter(([option, spec]) => spec.merchant && typeof values[option] === 'string');
  if (options.length === 0) return;
  await withClient(adminUrl, async (db) => {
    for (const [option] of options) {
      const resolved = await resolveMerchant(db, option, str(values[option]));
      if ('problem' in resolved) throw new UsageError(resolved.problem.code, resolved.problem.message);
      values[option] = resolved.id;
    }
  });
}

/** An ISO 8601 instant option, or undefined. */
function instant(value: Values[string], option: string): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(str(value));
  if (Number.isNaN(at.getTime())) throw new UsageError('invalid_option', `${option} must be an ISO 8601 instant`);
  return at;
}

function accessArgs(o: Values) {
  return { partnerCode: str(o.partner), merchantId: str(o.merchant), type: o.type as PartnerAccessType };
}

/** A string option that `parse` has checked. */
function str(value: Values[string]): string {
  return value as string;
}

/** What `ops <command> --help` prints: every option with its allowed values and default. */
function commandUsage(name: string, command: Command): Record<string, unknown> {
  return {
    usage: `npm run ops -- ${name} [options]`,
    summary: command.summary,
    options: Object.fromEntries(
      Object.entries(command.options).map(([option, spec]) => [
        `--${option}${spec.type === 'string' ? ' <value>' : ''}`,
        {
          description: spec.description,
          ...(spec.required ? { required: true } : {}),
          ...(spec.multiple ? { repeatable: true } : {}),
          ...(spec.values ? { values: spec.values } : {}),
          ...(spec.integer ? { type: 'positive integer' } : {}),
          ...(spec.default !== undefined ? { default: spec.default } : {}),
        },
      ]),
    ),
  };
}

function generalUsage(): Record<string, unknown> {
  return {
    usage: 'npm run ops -- <command> [options]   (npm run ops -- <command> --help for its options)',
    commands: Object.fromEntries(Object.entries(COMMANDS).map(([name, c]) => [name, c.summary])),
  };
}

/** The commands nearest a mistyped one, nearest first: by edit distance, plus those that contain it (`webhook`). */
function suggestionsFor(name: string): string[] {
  const bound = Math.max(2, Math.floor(name.length / 4));
  const near = Object.keys(COMMANDS)
    .map((n) => ({ n, d: distance(n, name) }))
    .filter(({ n, d }) => d <= bound || (name.length >= 3 && n.includes(name)))
    .sort((a, b) => a.d - b.d)
    .map(({ n }) => n);
  return near.length > 0 ? near : [closest(name, Object.keys(COMMANDS))];
}

/** Parses and checks the command's options: unknown options, missing required ones and invalid values are usage errors. */
function parse(name: string, command: Command, args: string[]): Values {
  let values: Values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(
          Object.entries(command.options).map(([option, spec]) => [option, { type: spec.type, multiple: spec.multiple === true }]),
        ),
      },
    }));
  } catch (error) {
    throw new UsageError('invalid_arguments', (error as Error).message, { help: `npm run ops -- ${name} --help` });
  }
  if (values.help) return values;
  for (const [option, spec] of Object.entries(command.options)) {
    const value = values[option] ?? spec.default;
    if (value === undefined || value === '') {
      if (spec.required) throw new UsageError('missing_option', `--${option} is required`, { help: `npm run ops -- ${name} --help` });
      continue;
    }
    if (spec.values && !spec.values.includes(value as string))
      throw new UsageError('invalid_option', `--${option} must be one of ${spec.values.join(', ')}`, { allowed: spec.values });
    if (spec.integer && !/^[1-9][0-9]{0,5}$/.test(value as string))
      throw new UsageError('invalid_option', `--${option} must be a positive integer`);
    values[option] = value;
  }
  return values;
}

export interface OpsIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stdout is a terminal: tables (and colours unless NO_COLOR) by default; otherwise JSON. */
  isTTY?: boolean;
}

/**
 * Runs one command line; answers the exit code. Output: JSON with `--json` or when stdout is not a terminal (scripts,
 * CI, tests); tables on a terminal or with `--table`, coloured only on a terminal. Errors are JSON on stderr either way.
 */
export async function runOps(commandLine: string[], env: NodeJS.ProcessEnv, io: OpsIo): Promise<number> {
  const argv = commandLine.filter((arg) => arg !== '--json' && arg !== '--table');
  const tables = !commandLine.includes('--json') && (commandLine.includes('--table') || io.isTTY === true);
  const style = io.isTTY && !env.NO_COLOR ? COLOURS : PLAIN;
  const print = (body: unknown) => {
    if (!tables) return io.stdout(JSON.stringify(body, null, 2) + '\n');
    // On a terminal the answer itself: the command name and database go to the first line only when there is a result.
    const answer = body as { command?: string; database?: string; result?: unknown };
    if ('result' in answer) {
      io.stdout(style.dim(`${answer.command}${answer.database ? ` (database: ${answer.database})` : ''}`) + '\n');
      return io.stdout(humanText(answer.result ?? null, style));
    }
    io.stdout(humanText(body, style));
  };
  const fail = (code: string, message: string, details: Record<string, unknown> = {}) =>
    io.stderr(JSON.stringify({ error: { code, message, ...details } }) + '\n');
  const warn = (code: string, message: string) => io.stderr(JSON.stringify({ warning: { code, message } }) + '\n');
  const [name, ...args] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      print(generalUsage());
      return name === undefined ? 2 : 0;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError('unknown_command', `unknown command "${name}"`, { did_you_mean: suggestionsFor(name) });
    const values = parse(name, command, args);
    if (values.help) {
      print(commandUsage(name, command));
      return 0;
    }
    const config = loadConfig(env);
    if (command.noDatabase) {
      print({ command: name, result: await command.run('', values, config) });
      return 0;
    }
    const target = await openDatabaseTarget(config, () =>
      warn(
        'no_running_database',
        `no running database found (DATABASE_URL is unset and no npm start serves ${config.database.dataDir}): ` +
          'starting an embedded PostgreSQL on that folder for this command only. Start npm start first, or set DATABASE_URL, to act on a running system.',
      ),
    );
    try {
      await resolveMerchantOptions(command, values, target.adminUrl);
      print({ command: name, database: target.source, result: await command.run(target.adminUrl, values, config) });
      return 0;
    } finally {
      await target.embedded?.stop();
    }
  } catch (error) {
    if (error instanceof UsageError) {
      fail(error.code, error.message, error.details);
      return 2;
    }
    // A documented refusal of the running system (e.g. live_nmid): its stable code.
    if (gateway && error instanceof gateway.GatewayTaskError) {
      fail(error.code, error.message, error.details);
      return 1;
    }
    fail('command_failed', (error as Error).message);
    return 1;
  }
}

if (require.main === module) {
  void runOps(process.argv.slice(2), process.env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: process.stdout.isTTY,
  }).then((code) => process.exit(code));
}
