import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { type Config, SUBGRAPH_NAMES, type SubgraphName } from '@lib/config/config';
import { ensureArchiveSchema, ensureRolesAndSchemas } from '@lib/db/bootstrap';
import { installJobQueue } from '@lib/jobs/install';
import { Client } from 'pg';
import { Registry } from 'prom-client';
import { Logger, runOnce } from 'graphile-worker';
import pino from 'pino';
import { migrate } from '@lib/db/migrate';
import type { Orm } from '@lib/db/orm';
import { JOB_SCHEMA } from '@lib/jobs/job-queue';
import { type SubgraphDefinition, openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { newSandboxNmid } from '@lib/domain/sandbox/sandbox-nmid';
import { SUBGRAPHS } from '@subgraphs';
import { secretBoxFor } from '@lib/crypto/secret-box';
import type { BankTier } from '@subgraphs/merchant/src/modules/bank/bank.entity';
import { BankService } from '@subgraphs/merchant/src/modules/bank/bank.service';
import { MerchantLifecycleService } from '@subgraphs/merchant/src/modules/merchant/merchant-lifecycle.service';
import { MerchantService } from '@subgraphs/merchant/src/modules/merchant/merchant.service';
import { OutboundUrlPolicy } from '@subgraphs/merchant/src/modules/webhook/outbound-url';
import { type InfoLog, WebhookService } from '@subgraphs/merchant/src/modules/webhook/webhook.service';
import type { PartnerAccessType, PartnerAuthMode, PartnerContract } from '@subgraphs/merchant/src/modules/partner/partner.entity';
import { PartnerService } from '@subgraphs/merchant/src/modules/partner/partner.service';
import { NotificationService } from '@subgraphs/merchant/src/modules/notification/notification.service';
import { type ReencryptionCounts, SEALED_COLUMNS, type SealedTable, SealedSecretReencryption } from '@lib/crypto/reencryption';
import { SuspensionService } from '@subgraphs/merchant/src/modules/suspension/suspension.service';
import { outletJobs } from '@subgraphs/outlet/src/jobs';
import { transactionJobs } from '@subgraphs/transaction/src/jobs';
import { OutletService } from '@subgraphs/outlet/src/modules/outlet/outlet.service';
import { LegalDocumentService } from '@subgraphs/merchant/src/modules/legal-document/legal-document.service';
import { type ImportResult, ReferenceImporter } from '@subgraphs/merchant/src/modules/reference/import/reference-importer';
import { ARCHIVE_SCHEMA } from '@subgraphs/transaction/src/modules/partition/partition.repository';
import {
  archivePartitions,
  checkArchiveBefore,
  ensurePartitions,
  listArchived,
  listPartitions,
} from '@subgraphs/transaction/src/modules/partition/partition.service';
import { pruneFeed } from '@subgraphs/transaction/src/modules/payment-feed/payment-feed.service';
import { ReconciliationService } from '@subgraphs/transaction/src/modules/reconciliation/reconciliation.service';
import { QrisPaymentService } from '@subgraphs/transaction/src/modules/qris-payment/qris-payment.service';
import { FeeGuardService, type RerateInput } from '@subgraphs/transaction/src/modules/mdr/fee-guard.service';

/** Opens a subgraph's ORM as its own role, runs `work`, closes it. */
async function withSubgraph<T>(
  definition: SubgraphDefinition,
  config: Config,
  adminUrl: string,
  work: (orm: Orm) => Promise<T>,
): Promise<T> {
  const orm = await openSubgraphOrm(definition, config, adminUrl);
  try {
    return await work(orm);
  } finally {
    await orm.close();
  }
}

/**
 * Roles and schemas (as admin), the job queue's schema and role (graphile-worker, docs/decisions/0031-webhooks-and-job-queue.md),
 * then each subgraph's pending migrations (as that subgraph's role).
 */
export async function migrateAll(config: Config, adminUrl: string): Promise<Record<string, string[]>> {
  await ensureRolesAndSchemas(config, adminUrl);
  await installJobQueue(config, adminUrl);
  const applied: Record<string, string[]> = {};
  for (const definition of SUBGRAPHS) {
    applied[definition.name] = await withSubgraph(definition, config, adminUrl, migrate);
  }
  return applied;
}

export interface ReferenceSeedResult {
  imports: ImportResult[];
  legalDocuments: { inserted: number; updated: number };
}

/** Regions, postal codes and coordinates (the shipped sample or `geoCsv`), business data, legal documents. */
export async function seedReference(config: Config, adminUrl: string, geoCsv?: string): Promise<ReferenceSeedResult> {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, async (orm) => {
    const importer = new ReferenceImporter(orm.em.getKnex());
    const imports = [await importer.importRegions(), await importer.importGeoCsv(geoCsv), await importer.importBusinessData()];
    const legalDocuments = await new LegalDocumentService(orm.em.fork()).syncShipped();
    return { imports, legalDocuments };
  });
}

/**
 * The demo merchant, its outlets, transactions and categories: each subgraph of `names` writes its own schema, all at
 * once (the merchant subgraph's demo names reference rows: `seedReferenceAndDemo` seeds them first).
 */
export async function seedDemo(
  config: Config,
  adminUrl: string,
  names: readonly SubgraphName[] = SUBGRAPH_NAMES,
): Promise<Record<string, Record<string, number>>> {
  if (config.isProduction) throw new Error('seed:demo writes publicly known demo keys and is refused with NODE_ENV=production');
  const seeded = SUBGRAPHS.filter((definition) => names.includes(definition.name));
  const written = await Promise.all(
    seeded.map((definition) =>
      withSubgraph(definition, config, adminUrl, (orm) => definition.seedDemo(orm.em.fork() as EntityManager, config)),
    ),
  );
  return Object.fromEntries(seeded.map((definition, i) => [definition.name, written[i]]));
}

/**
 * Reference data and then the merchant subgraph's demo data, beside the other subgraphs' demo data (the transaction
 * subgraph's history is the longest part): `npm start` and the tests' template, 1.5 s sooner on a 2-core host than
 * one after the other.
 */
export async function seedReferenceAndDemo(config: Config, adminUrl: string): Promise<ReferenceSeedResult> {
  const [reference] = await Promise.all([
    seedReference(config, adminUrl).then(async (result) => {
      await seedDemo(config, adminUrl, ['merchant']);
      return result;
    }),
    seedDemo(
      config,
      adminUrl,
      SUBGRAPH_NAMES.filter((name) => name !== 'merchant'),
    ),
  ]);
  return reference;
}

export interface OnboardMerchantInput {
  name: string;
  bankCode: string;
  /** The outlets' NMIDs; a sandbox bank's merchant gets sandbox NMIDs for every outlet when none are given. */
  nmids: string[];
  outlets: number;
  categoryCode?: string;
  /** Business scale (micro, small, medium, large): the QRIS criteria its MDR depends on; none: regular (URE). */
  businessScaleCode?: string;
  referralCode?: string;
  /** The merchant's contact phone, by which its bank's search finds it. */
  phone?: string;
  /** An app user's phone: the owner (created when unknown), to log in to the merchant with. */
  ownerPhone?: string;
}

/**
 * `merchant:create`: an active, KYC-verified merchant of a bank with its outlets and NMIDs. The outlets come
 * first (outlet subgraph), then the merchant with its first NMID (merchant subgraph): creating the merchant
 * is its first activation, announced to the bank (merchant.activated), so it must not happen before its
 * outlets exist. The two schemas cannot share a transaction: a failure creating the merchant removes the
 * outlets just created. A sandbox bank's merchant is a sandbox merchant (docs/decisions/0015-demo-data-and-sandbox.md), its
 * NMIDs of the sandbox range, one per outlet.
 */
export async function onboardMerchant(config: Config, adminUrl: string, input: OnboardMerchantInput) {
  const merchantDefinition = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  const outletDefinition = SUBGRAPHS.find((s) => s.name === 'outlet')!;
  const count = Math.max(input.outlets, input.nmids.length, 1);
  return withSubgraph(merchantDefinition, config, adminUrl, async (merchantOrm) => {
    const em = merchantOrm.em.fork() as EntityManager;
    if (!input.name.trim()) throw new Error('merchant name is required');
    const bank = await new BankService(em, secretBoxFor(config)).findByCode(input.bankCode);
    if (!bank) throw new Error(`unknown bank ${input.bankCode}`);
    const nmids = bank.sandbox && input.nmids.length === 0 ? Array.from({ length: count }, newSandboxNmid) : input.nmids;
    const categoryName = input.categoryCode
      ? ((await em.getKnex()('merchant.business_types').where({ mcc: input.categoryCode }).orderBy('id').first('name'))?.name ?? null)
      : null;
    const merchantId = uuidv7();
    const outlets = await withSubgraph(outletDefinition, config, adminUrl, (outletOrm) =>
      new OutletService(outletOrm.em.fork() as EntityManager).createForMerchant(
        merchantId,
        Array.from({ length: count }, (_, i) => ({
          code: i === 0 ? 'PUSAT' : `CABANG-${i}`,
          name: i === 0 ? input.name : `${input.name} – Cabang ${i}`,
          nmid: nmids[i] ?? null,
          bankCode: nmids[i] ? input.bankCode : null,
          isDefault: i === 0,
          withTerminal: true,
        })),
        { sandbox: bank.sandbox },
      ),
    );
    try {
      const merchant = await new MerchantService(em, config.suspension.kycValidityMonths).createOnboarded({
        id: merchantId,
        name: input.name,
        bankCode: input.bankCode,
        categoryCode: input.categoryCode,
        categoryName: categoryName ?? undefined,
        businessScaleCode: input.businessScaleCode,
        referralCode: input.referralCode,
        phone: input.phone,
        primaryNmid: nmids[0],
        ownerPhone: input.ownerPhone,
      });
      return {
        merchant_id: merchant.id,
        merchant_code: merchant.merchantCode,
        sandbox: merchant.sandbox,
        outlets: outlets.map((o) => ({ outlet_id: o.id, code: o.code, nmid: o.nmid })),
        ...(input.ownerPhone ? { owner_phone: toIndonesianE164(input.ownerPhone) } : {}),
      };
    } catch (error) {
      await withSubgraph(outletDefinition, config, adminUrl, async (outletOrm) => {
        const knex = outletOrm.em.getKnex();
        await knex('outlet.terminals').where({ merchant_id: merchantId }).delete();
        await knex('outlet.outlets').where({ merchant_id: merchantId }).delete();
      });
      throw error;
    }
  });
}

/** `bank:create`: a bank with one lookup and one event key; the secrets are shown once. */
export async function createBank(
  config: Config,
  adminUrl: string,
  input: { code: string; name: string; tier: BankTier; sandbox?: boolean },
) {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, (orm) =>
    new BankService(orm.em.fork() as EntityManager, secretBoxFor(config)).create(input),
  );
}

/** Grocery stores (ISO 18245): the category of a sandbox bank's first merchant. */
const SANDBOX_MERCHANT_MCC = '5411';

/**
 * `bank:create --sandbox`: a sandbox bank (docs/decisions/0015-demo-data-and-sandbox.md) and, so that its keys have something to
 * reach, its first sandbox merchant with `outlets` outlets, each with a sandbox NMID and a terminal, owned by the app
 * user of `ownerPhone` when given. A failure creating the merchant leaves the bank (add merchants with merchant:create).
 */
export async function createSandboxBank(
  config: Config,
  adminUrl: string,
  input: { code: string; name: string; merchantName?: string; outlets: number; ownerPhone?: string },
) {
  const bank = await createBank(config, adminUrl, { code: input.code, name: input.name, tier: 'external', sandbox: true });
  const merchant = await onboardMerchant(config, adminUrl, {
    name: input.merchantName ?? `Toko Sandbox ${input.code}`,
    bankCode: bank.bank_code,
    nmids: [],
    outlets: input.outlets,
    ownerPhone: input.ownerPhone,
    // An MCC, so that its outlets have a static QRIS and take dynamic QRIS payments (docs/decisions/0201-qris-payloads.md).
    categoryCode: SANDBOX_MERCHANT_MCC,
  });
  return { ...bank, merchant };
}

/** `bank:webhook`: the bank's lifecycle webhook endpoint with a new signing secret (shown once, stored sealed). */
export async function setBankWebhook(config: Config, adminUrl: string, input: { bankCode: string; url: string }) {
  // A refused address is answered before any connection is opened (the service checks it again for its other callers).
  new OutboundUrlPolicy(config.outboundUrls).check(input.url);
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, (orm) => webhookService(orm, config).setEndpoint(input.bankCode, input.url));
}

/** `webhook:deliveries`: the outbox, newest first. */
export function listWebhookDeliveries(config: Config, adminUrl: string, filter: { status?: string; bankCode?: string; limit?: number }) {
  return withWebhooks(config, adminUrl, (webhooks) => webhooks.listDeliveries(filter));
}

/** Runs `work` on the operator side of lifecycle webhooks (WebhookService, as the merchant role). */
function withWebhooks<T>(config: Config, adminUrl: string, work: (service: WebhookService) => Promise<T>): Promise<T> {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, (orm) => work(webhookService(orm, config)));
}

/** The operator side of lifecycle webhooks on `orm` (the merchant role), under the configured outbound URL policy. */
function webhookService(orm: Orm, config: Config): WebhookService {
  return new WebhookService(orm.em.fork() as EntityManager, secretBoxFor(config), new OutboundUrlPolicy(config.outboundUrls));
}

/** `webhook:redeliver`: one manual attempt queued now (the automatic schedule is left as it is); logged through `log`. */
export function redeliverWebhook(config: Config, adminUrl: string, eventId: string, log?: InfoLog) {
  return withWebhooks(config, adminUrl, (webhooks) => webhooks.redeliver(eventId, log));
}

/** `webhook:attempts`: every attempt of a delivery, oldest first. */
export function listWebhookAttempts(config: Config, adminUrl: string, eventId: string) {
  return withWebhooks(config, adminUrl, (webhooks) => webhooks.attempts(eventId));
}

/** `webhook:test`: a signed webhook.test event to the bank's endpoint now; its outcome. */
export function sendWebhookTest(config: Config, adminUrl: string, bankCode: string, log?: InfoLog) {
  return withWebhooks(config, adminUrl, (webhooks) => webhooks.sendTest(bankCode, log));
}

/** `webhook:endpoint`: disables (deliveries held) or enables (held deliveries resume) a bank's endpoint. */
export function setWebhookEndpointEnabled(
  config: Config,
  adminUrl: string,
  input: { bankCode: string; enabled: boolean; reason?: string },
  log?: InfoLog,
) {
  return withWebhooks(config, adminUrl, (webhooks) => webhooks.setEndpointEnabled(input.bankCode, input.enabled, input.reason, log));
}

/** `merchant:status`: one lifecycle move through MerchantLifecycleService (its webhook included). */
export async function changeMerchantStatus(
  config: Config,
  adminUrl: string,
  input: { merchantId: string; targetStatus: string; reason?: string },
) {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, async (orm) => {
    const outcome = await new MerchantLifecycleService(orm.em.fork(), undefined, config.suspension.kycValidityMonths).changeStatus(input);
    return {
      merchant_id: outcome.merchant.id,
      merchant_code: outcome.merchant.merchantCode,
      previous_status: outcome.previousStatus,
      status: outcome.merchant.status,
      reason: outcome.merchant.statusReason ?? null,
      webhook: outcome.webhook ? { event_id: outcome.webhook.eventId, event: outcome.webhook.event } : null,
    };
  });
}

/** `merchant:suspensions-due`: who the daily run will suspend within the days given (docs/operations.md). */
export async function listSuspensionsDue(config: Config, adminUrl: string, input: { withinDays: number; limit: number }) {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, async (orm) => {
    const em = orm.em.fork() as EntityManager;
    const lifecycle = new MerchantLifecycleService(em, undefined, config.suspension.kycValidityMonths);
    const rows = await new SuspensionService(em, config, lifecycle, new NotificationService(em, config)).listDue(input);
    return rows.map((r) => ({
      merchant_code: r.merchant_code,
      merchant_name: r.merchant_name,
      bank_code: r.bank_code,
      reason: r.reason,
      due_at: r.due_at.toISOString(),
      suspends_at: r.suspends_at.toISOString(),
      warned_at: r.warned_at?.toISOString() ?? null,
      kyc_expires_at: r.kyc_expires_at?.toISOString() ?? null,
      last_success_at: r.last_success_at?.toISOString() ?? null,
      merchant_id: r.merchant_id,
    }));
  });
}

/** `merchant:kyc-renew`: the KYC holds until `expiresAt`; a merchant suspended for kyc_expired comes back (its webhook included). */
export async function renewMerchantKyc(config: Config, adminUrl: string, input: { merchantId: string; expiresAt: Date }) {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, async (orm) => {
    const outcome = await new MerchantLifecycleService(orm.em.fork(), undefined, config.suspension.kycValidityMonths).renewKyc(input);
    return {
      merchant_id: outcome.merchant.id,
      merchant_code: outcome.merchant.merchantCode,
      previous_status: outcome.previousStatus,
      status: outcome.merchant.status,
      kyc_status: outcome.merchant.kycStatus,
      kyc_expires_at: outcome.merchant.kycExpiresAt?.toISOString() ?? null,
      webhook: outcome.webhook ? { event_id: outcome.webhook.eventId, event: outcome.webhook.event } : null,
    };
  });
}

/**
 * `secrets:reencrypt`: every sealed secret under the current SECRETS_ENCRYPTION_KEY, opened with any accepted key
 * (docs/operations.md, "Rotating secrets"); safe to run again and while the platform serves traffic.
 */
export async function reencryptSecrets(config: Config, adminUrl: string): Promise<Partial<Record<SealedTable, ReencryptionCounts>>> {
  const result: Partial<Record<SealedTable, ReencryptionCounts>> = {};
  for (const subgraph of new Set(SEALED_COLUMNS.map((c) => c.subgraph))) {
    const definition = SUBGRAPHS.find((s) => s.name === subgraph)!;
    const columns = SEALED_COLUMNS.filter((c) => c.subgraph === subgraph);
    Object.assign(
      result,
      await withSubgraph(definition, config, adminUrl, (orm) =>
        new SealedSecretReencryption(orm.em.getKnex(), secretBoxFor(config)).run(columns),
      ),
    );
  }
  return result;
}

function withPartners<T>(config: Config, adminUrl: string, work: (service: PartnerService) => Promise<T>): Promise<T> {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, (orm) => work(new PartnerService(orm.em.fork() as EntityManager, secretBoxFor(config))));
}

/**
 * `partner:create`: a partner; merchants (of its mode) already registered with its referral code become its
 * referrals. A sandbox partner reaches sandbox merchants only (docs/decisions/0015-demo-data-and-sandbox.md).
 */
export async function createPartner(
  config: Config,
  adminUrl: string,
  input: { code: string; name: string; referralCode: string; sandbox?: boolean },
) {
  const { partner_id, partner_code, referral_code, sandbox } = await withPartners(config, adminUrl, (partners) => partners.create(input));
  return { partner_id, partner_code, referral_code, sandbox };
}

/** `partner:credential`: a new credential of a partner; the secret is shown once. */
export function issuePartnerCredential(
  config: Config,
  adminUrl: string,
  input: {
    partnerCode: string;
    name: string;
    contract: PartnerContract;
    scopes: string[];
    mode: PartnerAuthMode;
    outletsEnabled?: boolean;
    rateLimitPerMinute?: number;
  },
) {
  return withPartners(config, adminUrl, (partners) => partners.issueCredential(input));
}

/** `partner:revoke`: the credential stops working (tokens and signatures within the adapters' cache window). */
export function revokePartnerCredential(config: Config, adminUrl: string, credentialKey: string) {
  return withPartners(config, adminUrl, (partners) => partners.revokeCredential(credentialKey));
}

/** `partner:grant`: a consent or an operator assignment puts a merchant in a partner's scope. */
export function grantPartnerAccess(
  config: Config,
  adminUrl: string,
  input: { partnerCode: string; merchantId: string; type: PartnerAccessType },
) {
  return withPartners(config, adminUrl, (partners) => partners.grant(input));
}

/** `partner:ungrant`: ends a live grant (a withdrawn consent removes the access it gave). */
export function ungrantPartnerAccess(
  config: Config,
  adminUrl: string,
  input: { partnerCode: string; merchantId: string; type: PartnerAccessType },
) {
  return withPartners(config, adminUrl, (partners) => partners.ungrant(input));
}

/** `dev:outbox`: the newest recorded notifications (what the log provider "sent"), optionally of one phone. */
export async function listOutbox(config: Config, adminUrl: string, filter: { phone?: string; limit?: number }) {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, (orm) => new NotificationService(orm.em.fork() as EntityManager, config).outbox(filter));
}

/** `qris:unmatched`: bank payments that named a bill number of ours but settled no dynamic QRIS payment, newest first. */
export async function listQrisUnmatched(
  config: Config,
  adminUrl: string,
  filter: { merchantId?: string; outletId?: string; reason?: string; from?: Date; before?: Date; first: number; after?: string },
) {
  const transaction = SUBGRAPHS.find((s) => s.name === 'transaction')!;
  return withSubgraph(transaction, config, adminUrl, (orm) => new QrisPaymentService(orm.em.fork() as EntityManager).unmatched(filter));
}

/**
 * `fees:rerate`: re-rates a merchant's period by the MDR policy, with its audit row (docs/decisions/0240-mdr-policy.md);
 * `log` gets the operator's line.
 */
export async function rerateMdr(config: Config, adminUrl: string, input: RerateInput, log: InfoLog) {
  const transaction = SUBGRAPHS.find((s) => s.name === 'transaction')!;
  return withSubgraph(transaction, config, adminUrl, async (orm) => {
    const audit = await new FeeGuardService(orm.em.fork() as EntityManager).rerate(input);
    log.info({ ...audit, by: audit.requested_by }, 'mdr re-rated');
    return audit;
  });
}

/**
 * `fees:overcharges`: the merchants the banks overcharged in a month, or one merchant's month with its flagged
 * settlements (docs/decisions/0240-mdr-policy.md).
 */
export async function listMdrOvercharges(config: Config, adminUrl: string, input: { month: string; merchantId?: string; first: number }) {
  const transaction = SUBGRAPHS.find((s) => s.name === 'transaction')!;
  return withSubgraph(transaction, config, adminUrl, async (orm) => {
    const service = new FeeGuardService(orm.em.fork() as EntityManager);
    if (!input.merchantId) return { month: input.month, merchants: await service.overchargedInMonth(input.month, input.first) };
    const [month] = await service.monthsOfMerchant(input.merchantId, input.month, input.month);
    return { ...month, settlements: await service.settlementsOfMonth(input.merchantId, input.month) };
  });
}

/** `partitions:ensure`: monthly partitions of transactions and payment events, once (the transaction process also does it). */
export async function ensureMonthlyPartitions(config: Config, adminUrl: string, options: { monthsAhead: number; from?: Date }) {
  const transaction = SUBGRAPHS.find((s) => s.name === 'transaction')!;
  return withSubgraph(transaction, config, adminUrl, (orm) =>
    ensurePartitions(orm.em.fork() as EntityManager, options.monthsAhead, { from: options.from }),
  );
}

/**
 * `partitions:list`: every partition of transactions and payment events, with its bounds and estimated rows, and the
 * months archived (the tables of the `archive` schema).
 */
export async function listMonthlyPartitions(config: Config, adminUrl: string) {
  const transaction = SUBGRAPHS.find((s) => s.name === 'transaction')!;
  return withSubgraph(transaction, config, adminUrl, async (orm) => ({
    partitions: await listPartitions(orm.em.fork() as EntityManager),
    archived: await listArchived(orm.em.fork() as EntityManager),
  }));
}

/**
 * `partitions:archive`: the months of transactions and payment events before `before` (YYYY-MM) detached into the
 * `archive` schema, which is created first as the admin (docs/decisions/0208-partitioned-history.md). With `dryRun`,
 * what it would do; nothing is created or changed.
 */
export async function archiveMonthlyPartitions(config: Config, adminUrl: string, options: { before: string; dryRun: boolean; now?: Date }) {
  checkArchiveBefore(options.before, options.now ?? new Date());
  if (!options.dryRun) await ensureArchiveSchema(adminUrl, ARCHIVE_SCHEMA);
  const transaction = SUBGRAPHS.find((s) => s.name === 'transaction')!;
  return withSubgraph(transaction, config, adminUrl, (orm) =>
    archivePartitions(orm.em.fork() as EntityManager, options.before, { dryRun: options.dryRun, now: options.now }),
  );
}

/** A pending job of the bank views that has failed at least once: its last error, kept by the job queue. */
interface FailedJob {
  task: string;
  attempts: number;
  error: string;
}

/**
 * `bank-view:sync`: brings the copies of what banks see up to date now: the outlet subgraph's of merchants
 * (docs/decisions/0211-bank-view-read-model.md) and the transaction subgraph's of payment targets (0028). Runs every
 * pending `merchant_profiles`, `payment_target_merchants` and `payment_target_outlets` job in this process, after
 * enqueueing every merchant and every merchant's outlets again with `all` (a rebuild, e.g. after restoring one schema
 * or loading with triggers off). Safe beside running workers.
 */
export async function syncBankView(config: Config, adminUrl: string, options: { all: boolean }) {
  const [outlet, transaction] = (['outlet', 'transaction'] as const).map((name) => SUBGRAPHS.find((s) => s.name === name)!);
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const enqueued = options.all
      ? (await client.query<{ n: number }>('select merchant.enqueue_all_merchant_profiles() + outlet.enqueue_all_payment_targets() as n'))
          .rows[0].n
      : 0;
    await withSubgraph(outlet, config, adminUrl, (outletOrm) =>
      withSubgraph(transaction, config, adminUrl, async (transactionOrm) => {
        const metrics = new Registry();
        await runOnce({
          connectionString: adminUrl,
          schema: JOB_SCHEMA,
          taskList: {
            ...outletJobs({ orm: outletOrm, metrics, config }).tasks,
            ...transactionJobs({ orm: transactionOrm, metrics, config, log: pino({ level: 'silent' }) }).tasks,
          },
          noHandleSignals: true,
          logger: new Logger(() => () => undefined),
          // Completions through graphile-worker's batcher (no delay): run-once then returns only after the last job's
          // completion committed. Unbatched it does not wait for it, and the count below saw that job pending (once,
          // on a loaded machine).
          preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
        });
      }),
    );
    // A job that failed here is retried later (by this command or a worker); its error is answered, not logged away.
    const { rows } = await client.query<{ copied: string; targets: string; pending: string; failed: FailedJob[] }>(
      `with pending as (
         select task_identifier, attempts, last_error from ${JOB_SCHEMA}.jobs
          where task_identifier in ('merchant_profiles', 'payment_target_merchants', 'payment_target_outlets'))
       select (select count(*) from outlet.merchant_profiles) as copied,
              (select count(*) from "transaction".payment_targets) as targets,
              (select count(*) from pending) as pending,
              (select coalesce(json_agg(json_build_object('task', task_identifier, 'attempts', attempts, 'error', last_error)), '[]')
                 from pending where last_error is not null) as failed`,
    );
    return {
      enqueued_jobs: enqueued,
      copied_merchants: Number(rows[0].copied),
      copied_payment_targets: Number(rows[0].targets),
      pending_jobs: Number(rows[0].pending),
      failed_jobs: rows[0].failed,
    };
  } finally {
    await client.end();
  }
}

/**
 * `reconciliation:run`: every outlet of one business day reconciled now, in one statement
 * (docs/decisions/0242-daily-reconciliation.md); answers what it wrote and how long it took. Safe beside running workers
 * (runs of one day take turns) and again (a re-run replaces the day's results, keeping operators' resolutions).
 */
export async function runReconciliation(config: Config, adminUrl: string, day: string) {
  const transaction = SUBGRAPHS.find((s) => s.name === 'transaction')!;
  return withSubgraph(transaction, config, adminUrl, async (orm) => {
    const started = performance.now();
    const counts = await new ReconciliationService(orm.em.fork() as EntityManager, config).runDay(day);
    return {
      business_day: day,
      outlet_days: counts.outletDays,
      differences: counts.differences,
      dropped: counts.dropped,
      cleared: counts.cleared,
      elapsed_ms: Math.round(performance.now() - started),
    };
  });
}

/** `feed:prune`: the payment feed's retention, once (the transaction process also runs it periodically). */
export async function prunePaymentFeed(config: Config, adminUrl: string, retentionDays: number) {
  const transaction = SUBGRAPHS.find((s) => s.name === 'transaction')!;
  return withSubgraph(transaction, config, adminUrl, (orm) => pruneFeed(orm.em.fork() as EntityManager, retentionDays));
}
