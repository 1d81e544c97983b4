import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The only module that reads process.env. Every process calls loadConfig() once at start; a wrong
 * environment fails with the full list of problems. Development defaults are printed by `npm start`.
 */
/** Where each process serves /metrics unless METRICS_PORT says otherwise (the collector scrapes it). */
export const METRICS_PORT_DEFAULT = 9464;
const Port = (port: number) => Type.Integer({ minimum: 0, maximum: 65535, default: port });
const Secret = (devDefault: string) => Type.String({ minLength: 16, default: devDefault });
const OptionalUrl = Type.Optional(Type.String({ pattern: '^(postgres|postgresql|redis|rediss|http|https)://' }));

export const DEV_SECRETS = {
  INTERNAL_API_KEY: 'dev-internal-api-key-change-me',
  PRINCIPAL_SECRET: 'dev-principal-secret-change-me-0000',
  SERVICE_TOKEN_SECRET: 'dev-service-token-secret-change-me-00',
  DB_ROLE_PASSWORD: 'dev-role-password-change-me',
  SECRETS_ENCRYPTION_KEY: 'dev-secrets-encryption-key-change-me-000000',
  PARTNER_TOKEN_SECRET: 'dev-partner-token-secret-change-me-000',
  USER_TOKEN_SECRET: 'dev-user-token-secret-change-me-00000000',
} as const;
/** Outside production an unset OPERATOR_TOKEN_SECRET takes this value (`npm run ops -- operator:token`); production refuses it. */
export const DEV_OPERATOR_TOKEN_SECRET = 'dev-operator-token-secret-change-me-0000';

/**
 * Outside production, outbound URLs (bank webhook endpoints) may point to loopback (local receivers); production
 * allows no range unless OUTBOUND_ALLOW_CIDRS says so (docs/decisions/0031-webhooks-and-job-queue.md).
 */
export const DEV_OUTBOUND_ALLOW_CIDRS = '127.0.0.0/8,::1/128';

/** The notification channels that carry one-time passwords (phone login, email change): refused without a provider in production. */
const OTP_PROVIDER_URLS = [
  ['MESSAGING_PROVIDER_URL', 'WhatsApp'],
  ['EMAIL_PROVIDER_URL', 'email'],
] as const;

const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')], {
    default: 'development',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
  HOST: Type.String({ default: '127.0.0.1' }),

  // Database: admin URL (migrations, role set-up); each subgraph connects as its own role.
  DATABASE_URL: OptionalUrl,
  MERCHANT_DATABASE_URL: OptionalUrl,
  OUTLET_DATABASE_URL: OptionalUrl,
  TRANSACTION_DATABASE_URL: OptionalUrl,
  CATALOG_DATABASE_URL: OptionalUrl,
  // A connection pooler in transaction mode (PgBouncer) in front of DATABASE_URL's server, as host:port: the subgraphs'
  // pools reach it with their roles; the sessions that LISTEN (job workers, the invalidation relay) stay direct.
  DATABASE_POOLER_ADDRESS: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9.-]+:[0-9]{1,5}$' })),
  // A subgraph's direct URL for its LISTEN sessions when <NAME>_DATABASE_URL names a pooler.
  MERCHANT_DIRECT_DATABASE_URL: OptionalUrl,
  OUTLET_DIRECT_DATABASE_URL: OptionalUrl,
  TRANSACTION_DIRECT_DATABASE_URL: OptionalUrl,
  CATALOG_DIRECT_DATABASE_URL: OptionalUrl,
  // A streaming replica's admin URL (same form as DATABASE_URL): the lag-tolerant reads (lib/federation/replica-reads.ts)
  // go there with each subgraph's role unless <NAME>_READ_DATABASE_URL is set; unset: every read on the primary.
  DATABASE_READ_URL: OptionalUrl,
  MERCHANT_READ_DATABASE_URL: OptionalUrl,
  OUTLET_READ_DATABASE_URL: OptionalUrl,
  TRANSACTION_READ_DATABASE_URL: OptionalUrl,
  CATALOG_READ_DATABASE_URL: OptionalUrl,
  /** The replica serves reads only while its replay lag (polled each second) is at most this, ms; else the primary does. */
  DB_REPLICA_MAX_LAG_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 5000 }),
  DB_ROLE_PREFIX: Type.String({ pattern: '^[a-z][a-z0-9_]{0,20}$', default: 'qris' }),
  DB_ROLE_PASSWORD: Secret(DEV_SECRETS.DB_ROLE_PASSWORD),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  // A pooled connection idle this long is closed (the ORMs' and the job workers' pools), ms.
  DB_POOL_IDLE_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 30000 }),
  // `unnamed`: the pools' hot statements are not prepared under a name (a pooler in transaction mode without
  // prepared-statement support, e.g. PgBouncer before 1.21, hands each transaction another server connection).
  DB_PREPARED_STATEMENTS: Type.Union([Type.Literal('named'), Type.Literal('unnamed')], { default: 'named' }),
  DATA_DIR: Type.String({ default: '.data' }),
  EMBEDDED_PG_PORT: Port(5433),
  REDIS_URL: OptionalUrl,

  // Ports and addresses.
  REST_PORT: Port(8080),
  GATEWAY_PORT: Port(4000),
  MERCHANT_PORT: Port(4001),
  OUTLET_PORT: Port(4002),
  TRANSACTION_PORT: Port(4003),
  CATALOG_PORT: Port(4004),
  /** Prometheus /metrics of this process, on HOST beside (not on) its public port; 0 turns it off. */
  METRICS_PORT: Port(METRICS_PORT_DEFAULT),
  GATEWAY_URL: OptionalUrl,
  MERCHANT_SUBGRAPH_URL: OptionalUrl,
  OUTLET_SUBGRAPH_URL: OptionalUrl,
  TRANSACTION_SUBGRAPH_URL: OptionalUrl,
  CATALOG_SUBGRAPH_URL: OptionalUrl,

  // Secrets.
  INTERNAL_API_KEY: Secret(DEV_SECRETS.INTERNAL_API_KEY),
  PRINCIPAL_SECRET: Secret(DEV_SECRETS.PRINCIPAL_SECRET),
  SERVICE_TOKEN_SECRET: Secret(DEV_SECRETS.SERVICE_TOKEN_SECRET),
  /** Encrypts stored secrets that must be readable again (bank keys, webhook secrets); at least 32 characters. */
  SECRETS_ENCRYPTION_KEY: Type.String({ minLength: 32, default: DEV_SECRETS.SECRETS_ENCRYPTION_KEY }),
  /** Signs partner access tokens (HS256); at least 32 characters. */
  PARTNER_TOKEN_SECRET: Type.String({ minLength: 32, default: DEV_SECRETS.PARTNER_TOKEN_SECRET }),
  /** Signs app users' access tokens (HS256); at least 32 characters. */
  USER_TOKEN_SECRET: Type.String({ minLength: 32, default: DEV_SECRETS.USER_TOKEN_SECRET }),
  /**
   * Rotation (docs/operations.md, "Rotating secrets"): `<NAME>_PREVIOUS` is a comma-separated list of further values of
   * that secret that are still accepted (tokens verified, sealed values opened) but never used to sign or seal: the
   * previous value while a rotation runs, or the next one before the processes start signing with it.
   */
  PRINCIPAL_SECRET_PREVIOUS: Type.Optional(Type.String()),
  SERVICE_TOKEN_SECRET_PREVIOUS: Type.Optional(Type.String()),
  SECRETS_ENCRYPTION_KEY_PREVIOUS: Type.Optional(Type.String()),
  PARTNER_TOKEN_SECRET_PREVIOUS: Type.Optional(Type.String()),
  USER_TOKEN_SECRET_PREVIOUS: Type.Optional(Type.String()),

  // Behaviour.
  REFERENCE_CACHE_TTL_SECS: Type.Integer({ minimum: 0, maximum: 86400, default: 300 }),
  GATEWAY_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60000, default: 10000 }),
  /**
   * Where the REST process's query plans fetch from (it runs the gateway's executor itself,
   * docs/decisions/0009-how-operations-execute.md): `in-process` (the subgraphs' schemas and services run inside the REST
   * process on their own database roles) or `http` (each subgraph's process). docs/decisions/0009-how-operations-execute.md.
   */
  REST_SUBGRAPHS: Type.Union([Type.Literal('in-process'), Type.Literal('http')], { default: 'in-process' }),
  /** Every HTTP server (REST, gateway, subgraphs): whole request received within (slow clients are cut off), ms. */
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 300000, default: 30000 }),
  /** Every HTTP server: an idle socket (nothing sent or received) is closed after, ms. */
  HTTP_CONNECTION_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 60000 }),
  /** Every HTTP server: an idle keep-alive connection is closed after, ms (above the clients' pool keep-alive of 30 s). */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 72000 }),
  /**
   * Every long-running process, on SIGTERM: /readyz answers 503 at once, and the process goes on serving this long
   * (load balancers stop sending) before it stops accepting, lets in-flight requests finish and exits, ms. 0 in
   * development (Ctrl-C stops at once); docs/decisions/0203-compose-and-image-proof.md.
   */
  DRAIN_DELAY_MS: Type.Integer({ minimum: 0, maximum: 120000, default: 0 }),
  /** Bank calls (events, by-NMID lookups) sent to the graph together at most (the REST adapter's micro-batch); 1 sends each alone. */
  BANK_BATCH_MAX: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
  /** Micro-batches of each kind running at once in this REST copy; calls arriving meanwhile wait and leave together. 1 with several copies (docs/operations.md). */
  BANK_BATCH_IN_FLIGHT: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  /** Multiplies the webhook retry delays (30 s, 5 min, 30 min, 2 h); tests shrink them, e.g. 0.001. */
  WEBHOOK_RETRY_SCALE: Type.Number({ minimum: 0, maximum: 100, default: 1 }),
  /**
   * Ranges that outbound URLs (bank webhook endpoints) may reach although the policy refuses them (loopback,
   * private, link-local...): comma-separated CIDRs, or `none`. Default: DEV_OUTBOUND_ALLOW_CIDRS outside
   * production, none in production.
   */
  OUTBOUND_ALLOW_CIDRS: Type.Optional(Type.String({ minLength: 1 })),
  /** Multiplies the notification retry delays (10 s, 1 min, 5 min); tests shrink them. */
  NOTIFICATION_RETRY_SCALE: Type.Number({ minimum: 0, maximum: 100, default: 1 }),
  /**
   * The daily summary push (docs/decisions/0046-notifications.md): sent at this local time of
   * Asia/Makassar (HH:MM, 24 h) with the figures of that business day, by the merchant process's job worker.
   */
  DAILY_SUMMARY_SEND_AT: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', default: '21:00' }),
  /** A day's summary not sent within this many minutes after its send time (every worker down) is not sent at all. */
  DAILY_SUMMARY_CATCH_UP_MINUTES: Type.Integer({ minimum: 1, maximum: 720, default: 180 }),
  /**
   * Automatic suspension (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md): the merchant process's daily
   * run at this local time of Asia/Makassar (HH:MM, 24 h) suspends active merchants whose KYC expired or that had no
   * successful transaction for SUSPENSION_INACTIVITY_MONTHS, and warns their owners SUSPENSION_WARNING_DAYS before.
   */
  SUSPENSION_RUN_AT: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', default: '09:00' }),
  /**
   * Monthly statements (docs/decisions/0242-daily-reconciliation.md): the transaction process generates the past month's
   * statements on the first day of each month at this local time of Asia/Makassar (HH:MM, 24 h).
   */
  STATEMENTS_RUN_AT: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', default: '03:00' }),
  /** At most 12: the months of transactions that stay online (partitions:archive keeps them; decision 0208). */
  SUSPENSION_INACTIVITY_MONTHS: Type.Integer({ minimum: 1, maximum: 12, default: 6 }),
  SUSPENSION_WARNING_DAYS: Type.Integer({ minimum: 0, maximum: 90, default: 14 }),
  /** How long a KYC verification holds (months from approval or verification) until an operator renews it. */
  KYC_VALIDITY_MONTHS: Type.Integer({ minimum: 1, maximum: 120, default: 24 }),
  /**
   * A new settlement account is held this long before it is paid into (docs/decisions/0238-settlement-accounts.md):
   * the owner is told on every channel and may cancel meanwhile. Hours, fractions allowed (tests use a second or two).
   */
  SETTLEMENT_ACCOUNT_COOLING_OFF_HOURS: Type.Number({ minimum: 0, maximum: 720, default: 48 }),
  /**
   * Jobs (webhook deliveries, notifications) the merchant process runs at once from the PostgreSQL job queue
   * (docs/decisions/0031-webhooks-and-job-queue.md); 0 runs no worker in that process. Any number of copies may run one.
   */
  JOBS_CONCURRENCY: Type.Integer({ minimum: 0, maximum: 64, default: 8 }),
  /** How often an idle worker looks for jobs that became due (retries), ms; new jobs arrive at once (LISTEN/NOTIFY). */
  JOBS_POLL_INTERVAL_MS: Type.Integer({ minimum: 50, maximum: 600000, default: 1000 }),
  /** A job worker unseen this long (its process died) has its jobs unlocked for another process, seconds. */
  JOBS_RECOVERY_SECS: Type.Integer({ minimum: 2, maximum: 3600, default: 60 }),
  /**
   * Proxies in front of the REST process and the gateway (a load balancer: 1). The client address (rate limits,
   * one-time password limits per address, logs) is then read from X-Forwarded-For that many hops back; 0 = the socket.
   */
  TRUST_PROXY_HOPS: Type.Integer({ minimum: 0, maximum: 5, default: 0 }),
  /** How long the REST process trusts a partner credential's status (revocation delay), 0-60000 ms. */
  PARTNER_CREDENTIAL_CACHE_MS: Type.Integer({ minimum: 0, maximum: 60000, default: 60000 }),

  // Live payment events (REST process; docs/decisions/0202-live-payment-events.md).
  /** A keep-alive comment on every open event stream this often, ms. */
  LIVE_KEEPALIVE_MS: Type.Integer({ minimum: 50, maximum: 300000, default: 15000 }),
  /**
   * Every open stream's feed is read again this often whatever the wake-ups (PostgreSQL NOTIFY, or the Redis signal
   * with REST_SUBGRAPHS=http): only the safety net for a lost one, ms.
   */
  LIVE_POLL_MS: Type.Integer({ minimum: 50, maximum: 300000, default: 30000 }),
  /** Open event streams one user (or one merchant on the service surface) may hold per REST process. */
  LIVE_MAX_STREAMS_PER_USER: Type.Integer({ minimum: 1, maximum: 10000, default: 10 }),
  /** An event stream is ended after this long (the client reconnects with Last-Event-ID; its token and scope are checked again), ms. */
  LIVE_MAX_STREAM_MS: Type.Integer({ minimum: 50, maximum: 86400000, default: 3600000 }),
  /** Days the payment feed keeps its rows (transaction process; the replay window is 24 h): older ones are pruned. */
  PAYMENT_FEED_RETENTION_DAYS: Type.Integer({ minimum: 2, maximum: 3650, default: 7 }),
  /** How often the transaction process prunes the feed, ms; 0 runs no pruner in that process (several may run: one works at a time). */
  PAYMENT_FEED_PRUNE_INTERVAL_MS: Type.Integer({ minimum: 0, maximum: 86400000, default: 3600000 }),
  /** Monthly partitions of transactions and payment events kept ready beyond the current month (docs/decisions/0208-partitioned-history.md). */
  PARTITION_MONTHS_AHEAD: Type.Integer({ minimum: 1, maximum: 24, default: 3 }),
  /** How often the transaction process makes sure of them (and once at start), ms; 0: not in this process. */
  PARTITION_ENSURE_INTERVAL_MS: Type.Integer({ minimum: 0, maximum: 86400000, default: 21600000 }),
  /**
   * The daily reconciliation per outlet (docs/decisions/0242-daily-reconciliation.md): the transaction process's worker
   * reconciles the business day before, every outlet at once, at this local time of Asia/Jakarta (HH:MM, 24 h); each
   * settlement also reconciles its outlet-day when it arrives.
   */
  RECONCILIATION_RUN_AT: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', default: '23:00' }),
  /** A static-QRIS payment matches a point-of-sale order of its amount at the same outlet at most this many minutes apart. */
  RECONCILIATION_STATIC_MATCH_MINUTES: Type.Integer({ minimum: 1, maximum: 240, default: 10 }),
  /** A settlement received later than this many hours after the end of its business day is a late settlement. */
  RECONCILIATION_SETTLEMENT_DUE_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 24 }),

  // Notifications (merchant process): an empty URL means the log provider (messages only recorded, dev:outbox);
  // production refuses it for messaging and email, the channels of one-time passwords.
  MESSAGING_PROVIDER_URL: OptionalUrl,
  MESSAGING_PROVIDER_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  PUSH_PROVIDER_URL: OptionalUrl,
  PUSH_PROVIDER_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  EMAIL_PROVIDER_URL: OptionalUrl,
  EMAIL_PROVIDER_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  NOTIFICATION_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 30000, default: 5000 }),
  /** Messaging-provider webhook (REST process): subscription check token and the HMAC secret of X-Hub-Signature-256; unset = 503. */
  MESSAGING_WEBHOOK_VERIFY_TOKEN: Type.Optional(Type.String({ minLength: 8 })),
  MESSAGING_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 16 })),

  // Phone login.
  /** One-time passwords a phone (or a user's email change) may be sent per rolling hour. */
  OTP_MAX_PER_PHONE_PER_HOUR: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  /** One-time passwords one client address may request per rolling hour (all phones together). */
  OTP_MAX_PER_ADDRESS_PER_HOUR: Type.Integer({ minimum: 1, maximum: 10000, default: 20 }),
  /** How long the REST process trusts that a session is live (logout/revocation delay), 0-30000 ms. */
  USER_SESSION_CACHE_MS: Type.Integer({ minimum: 0, maximum: 30000, default: 30000 }),
  /** external-phone-verify: the identity provider's JWKS, the ID tokens' issuer and audience; any unset = 503. */
  EXTERNAL_VERIFIER_JWKS_URL: OptionalUrl,
  EXTERNAL_VERIFIER_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
  EXTERNAL_VERIFIER_AUDIENCE: Type.Optional(Type.String({ minLength: 1 })),
  EXTERNAL_VERIFIER_PHONE_CLAIM: Type.String({ minLength: 1, default: 'phone_number' }),
  EXTERNAL_VERIFIER_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 30000, default: 5000 }),

  // Gateway: operators, limits, trusted documents.
  /** Verifies operator tokens signed with a shared key (HS256, development and small set-ups); at least 32 characters. */
  OPERATOR_TOKEN_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /** Verifies operator tokens of an identity provider (RS256/ES256) by its key set; used when set. */
  OPERATOR_JWKS_URL: OptionalUrl,
  OPERATOR_TOKEN_ISSUER: Type.String({ minLength: 1, default: 'qris-operator' }),
  OPERATOR_TOKEN_AUDIENCE: Type.String({ minLength: 1, default: 'qris-gateway' }),
  /** Refuse free-form operations of app users (and anonymous callers): only the trusted documents. Default: on in production. */
  GATEWAY_TRUSTED_DOCUMENTS_ONLY: Type.Optional(Type.Boolean()),
  GATEWAY_MAX_DEPTH: Type.Integer({ minimum: 2, maximum: 50, default: 12 }),
  GATEWAY_MAX_COST: Type.Integer({ minimum: 10, maximum: 1000000, default: 20000 }),
});

type Env = Static<typeof EnvSchema>;
/** Every variable the config reads (scripts/image-boot.ts checks docker-compose.yml passes only these, and OTEL_*). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.properties);
/**
 * The variables that hold secrets (credentials, keys, URLs that may carry a password). Each may instead be given as
 * `<NAME>_FILE`, the path of a file holding it (a mounted Kubernetes or Docker secret; one trailing newline is
 * dropped); setting both is an error.
 */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'MERCHANT_DATABASE_URL',
  'OUTLET_DATABASE_URL',
  'TRANSACTION_DATABASE_URL',
  'CATALOG_DATABASE_URL',
  'DB_ROLE_PASSWORD',
  'REDIS_URL',
  'INTERNAL_API_KEY',
  'PRINCIPAL_SECRET',
  'SERVICE_TOKEN_SECRET',
  'SECRETS_ENCRYPTION_KEY',
  'PARTNER_TOKEN_SECRET',
  'USER_TOKEN_SECRET',
  'OPERATOR_TOKEN_SECRET',
  'MESSAGING_PROVIDER_TOKEN',
  'PUSH_PROVIDER_TOKEN',
  'EMAIL_PROVIDER_TOKEN',
  'MESSAGING_WEBHOOK_VERIFY_TOKEN',
  'MESSAGING_WEBHOOK_SECRET',
  // Values still accepted while a secret rotates (docs/decisions/0024-bank-keys-and-signatures.md).
  'PRINCIPAL_SECRET_PREVIOUS',
  'SERVICE_TOKEN_SECRET_PREVIOUS',
  'SECRETS_ENCRYPTION_KEY_PREVIOUS',
  'PARTNER_TOKEN_SECRET_PREVIOUS',
  'USER_TOKEN_SECRET_PREVIOUS',
] as const satisfies readonly (keyof Env)[];
/** The file variant of a secret variable: `<NAME>_FILE`. */
export const secretFileVariable = (name: string): string => `${name}_FILE`;
export const SUBGRAPH_NAMES = ['merchant', 'outlet', 'transaction', 'catalog'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];
/** The processes of the system; on one host (`npm start`) process i serves /metrics on METRICS_PORT + i. */
export const PROCESS_NAMES = ['rest', 'gateway', ...SUBGRAPH_NAMES] as const;
export type ProcessName = (typeof PROCESS_NAMES)[number];
export const localMetricsPort = (config: Config, name: ProcessName): number =>
  config.ports.metrics === 0 ? 0 : config.ports.metrics + PROCESS_NAMES.indexOf(name);

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  logLevel: Env['LOG_LEVEL'];
  host: string;
  database: {
    adminUrl?: string;
    subgraphUrls: Partial<Record<SubgraphName, string>>;
    /** host:port of a pooler in transaction mode the derived subgraph URLs go through (docs/decisions/0228-database-high-availability.md). */
    poolerAddress?: string;
    /** Each subgraph's URL for sessions that must not go through a pooler (LISTEN), when its URL names one. */
    directUrls: Partial<Record<SubgraphName, string>>;
    /** A streaming replica's admin URL (DATABASE_READ_URL): each subgraph's read URL is derived from it like its primary one. */
    readAdminUrl?: string;
    /** Each subgraph's explicit read URL (<NAME>_READ_DATABASE_URL). */
    readUrls: Partial<Record<SubgraphName, string>>;
    /** The replica lag up to which lag-tolerant reads go to the replica (DB_REPLICA_MAX_LAG_MS). */
    replicaMaxLagMs: number;
    rolePrefix: string;
    rolePassword: string;
    poolMax: number;
    /** A pooled connection idle this long is closed, ms (DB_POOL_IDLE_MS). */
    poolIdleMs: number;
    /** Whether the pools prepare their hot statements under a name (DB_PREPARED_STATEMENTS). */
    namedStatements: boolean;
    dataDir: string;
    embeddedPort: number;
  };
  redisUrl?: string;
  ports: { rest: number; gateway: number; metrics: number } & Record<SubgraphName, number>;
  gatewayUrl: string;
  /** Where the gateway reaches each subgraph: <NAME>_SUBGRAPH_URL, else 127.0.0.1 on the subgraph's port. */
  subgraphUrls: Record<SubgraphName, string>;
  secrets: {
    internalApiKey: string;
    principalSecret: string;
    serviceTokenSecret: string;
    encryptionKey: string;
    partnerTokenSecret: string;
    userTokenSecret: string;
    /**
     * Every accepted value of each rotating secret, the current one (which signs and seals) first, then
     * `<NAME>_PREVIOUS`: what verifies tokens and opens sealed values.
     */
    accepted: Record<RotatingSecret, readonly string[]>;
  };
  referenceCacheTtlSecs: number;
  gatewayTimeoutMs: number;
  restSubgraphs: Env['REST_SUBGRAPHS'];
  /** Server-side timeouts of every HTTP process (lib/http/server-timeouts.ts); proxies trusted for X-Forwarded-For (REST, gateway). */
  http: { requestTimeoutMs: number; connectionTimeoutMs: number; keepAliveTimeoutMs: number; trustProxyHops: number; drainDelayMs: number };
  webhooks: { retryScale: number };
  /** What outbound URLs set by tenants or operators may be (subgraphs/merchant/src/modules/webhook/outbound-url.ts). */
  outboundUrls: { requireHttps: boolean; allowCidrs: readonly string[] };
  /** The job queue's worker in the processes that own jobs (lib/jobs, docs/decisions/0031-webhooks-and-job-queue.md). */
  jobs: { concurrency: number; pollIntervalMs: number; recoverySecs: number };
  /** The REST adapter's micro-batches of bank calls (rest-adapters/psp/routes/shared/bank-batch.ts). */
  bankBatch: { max: number; inFlight: number };
  partnerCredentialCacheMs: number;
  notifications: {
    messaging: ProviderEndpoint;
    push: ProviderEndpoint;
    email: ProviderEndpoint;
    timeoutMs: number;
    retryScale: number;
  };
  /** The daily summary push (merchant process): local send time in Asia/Makassar and the catch-up window. */
  dailySummary: { sendAt: { hour: number; minute: number }; catchUpMs: number };
  /** Automatic suspension (merchant process): the daily run's local time, the inactivity window, the warning, KYC validity. */
  suspension: { runAt: { hour: number; minute: number }; inactivityMonths: number; warningDays: number; kycValidityMonths: number };
  /** Settlement accounts (outlet subgraph): how long a new account is held before it becomes effective. */
  settlementAccounts: { coolingOffMs: number };
  /** Monthly statements (transaction process): the local time of the first day of each month when the past month's run. */
  statements: { runAt: { hour: number; minute: number } };
  messagingWebhook: { verifyToken?: string; secret?: string };
  /** Live payment events in the REST process (lib/events, rest-adapters/core/live). */
  live: { keepAliveMs: number; pollMs: number; maxStreamsPerUser: number; maxStreamMs: number };
  /** Retention of the live payment feed (transaction process; docs/decisions/0202-live-payment-events.md). */
  paymentFeed: { retentionDays: number; pruneIntervalMs: number };
  partitions: { monthsAhead: number; ensureIntervalMs: number };
  /** The daily reconciliation (transaction process): the daily run's local time (Asia/Jakarta), matching and due windows. */
  reconciliation: { runAt: { hour: number; minute: number }; staticMatchSecs: number; settlementDueSecs: number };
  otp: { maxPerPhonePerHour: number; maxPerAddressPerHour: number };
  userSessionCacheMs: number;
  externalVerifier: { jwksUrl?: string; issuer?: string; audience?: string; phoneClaim: string; timeoutMs: number };
  operatorTokens: { secret?: string; jwksUrl?: string; issuer: string; audience: string };
  gatewayLimits: { trustedDocumentsOnly: boolean; maxDepth: number; maxCost: number };
}

/** An outside notification provider; no url = the log provider (records only). */
export interface ProviderEndpoint {
  url?: string;
  token?: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n  - ${problems.join('\n  - ')}`);
  }
}

/**
 * Turns off what @apollo/gateway sends to its vendor by default (docs/decisions/0012-observability.md):
 * at every construction it probes the cloud metadata services (AWS, GCP, Azure, Alibaba) to describe the host, and
 * it exports usage figures to Apollo's servers every hour and at shutdown. Its only switch is this variable, read by
 * the gateway's constructor, so the gateway's construction calls this first.
 */
export function disableVendorTelemetry(): void {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
}

/** Validates the environment (defaults applied, numbers coerced) and returns a typed, frozen config. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const { values, problems: fileProblems } = withSecretFiles(source);
  const env = readEnv(values);
  const allowCidrs = outboundAllowCidrs(env.OUTBOUND_ALLOW_CIDRS ?? (env.NODE_ENV === 'production' ? 'none' : DEV_OUTBOUND_ALLOW_CIDRS));
  const problems = [
    ...fileProblems,
    ...schemaProblems(env),
    ...cidrProblems(allowCidrs),
    ...previousSecretProblems(env),
    ...(env.NODE_ENV === 'production' ? productionProblems(env) : []),
  ];
  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    logLevel: env.LOG_LEVEL,
    host: env.HOST,
    ...databaseSection(env),
    ...addressSection(env),
    secrets: secretsSection(env),
    ...behaviourSection(env, allowCidrs),
    ...liveSection(env),
    ...notificationSection(env),
    ...phoneLoginSection(env),
    ...gatewaySection(env),
  });
}

/** `source` with each secret given as `<NAME>_FILE` read from its file (SECRET_VARIABLES). */
function withSecretFiles(source: NodeJS.ProcessEnv): { values: NodeJS.ProcessEnv; problems: string[] } {
  const values: NodeJS.ProcessEnv = { ...source };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const fileVariable = secretFileVariable(name);
    const file = source[fileVariable];
    if (file === undefined || file === '') continue;
    if (source[name] !== undefined && source[name] !== '') {
      problems.push(`${name}: set either ${name} or ${fileVariable}, not both`);
      continue;
    }
    try {
      values[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${fileVariable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  return { values, problems };
}

/** The variables the schema knows, empty ones left out, with defaults applied and numbers coerced (not yet checked). */
function readEnv(source: NodeJS.ProcessEnv): Env {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  return Value.Convert(EnvSchema, Value.Default(EnvSchema, raw)) as Env;
}

function schemaProblems(env: Env): string[] {
  return [...Value.Errors(EnvSchema, env)].map((e) => `${e.path.slice(1) || 'env'}: ${e.message}`);
}

function cidrProblems(allowCidrs: readonly string[]): string[] {
  return allowCidrs
    .filter((cidr) => !validCidr(cidr))
    .map((cidr) => `OUTBOUND_ALLOW_CIDRS: ${cidr} is not an IPv4 or IPv6 CIDR (address/prefix)`);
}

/** What production refuses although the schema accepts it: development secrets, and one-time passwords that reach nobody. */
function productionProblems(env: Env): string[] {
  const problems: string[] = [];
  for (const [key, devValue] of Object.entries(DEV_SECRETS)) {
    if ((env as Record<string, unknown>)[key] === devValue) problems.push(`${key}: must be set in production`);
  }
  if (env.OPERATOR_TOKEN_SECRET === DEV_OPERATOR_TOKEN_SECRET)
    problems.push('OPERATOR_TOKEN_SECRET: must not be the development value in production');
  // The log provider only records a message: in production a one-time password would reach nobody (and its
  // code is not kept), so the channels that carry codes need a real provider.
  for (const [key, channel] of OTP_PROVIDER_URLS) {
    if (!env[key])
      problems.push(`${key}: must be set in production (the log provider only records ${channel} one-time passwords, it sends nothing)`);
  }
  return problems;
}

function databaseSection(env: Env): Pick<Config, 'database' | 'redisUrl'> {
  return {
    database: {
      adminUrl: env.DATABASE_URL,
      subgraphUrls: {
        merchant: env.MERCHANT_DATABASE_URL,
        outlet: env.OUTLET_DATABASE_URL,
        transaction: env.TRANSACTION_DATABASE_URL,
        catalog: env.CATALOG_DATABASE_URL,
      },
      poolerAddress: env.DATABASE_POOLER_ADDRESS,
      directUrls: {
        merchant: env.MERCHANT_DIRECT_DATABASE_URL,
        outlet: env.OUTLET_DIRECT_DATABASE_URL,
        transaction: env.TRANSACTION_DIRECT_DATABASE_URL,
        catalog: env.CATALOG_DIRECT_DATABASE_URL,
      },
      readAdminUrl: env.DATABASE_READ_URL,
      readUrls: {
        merchant: env.MERCHANT_READ_DATABASE_URL,
        outlet: env.OUTLET_READ_DATABASE_URL,
        transaction: env.TRANSACTION_READ_DATABASE_URL,
        catalog: env.CATALOG_READ_DATABASE_URL,
      },
      replicaMaxLagMs: env.DB_REPLICA_MAX_LAG_MS,
      rolePrefix: env.DB_ROLE_PREFIX,
      rolePassword: env.DB_ROLE_PASSWORD,
      poolMax: env.DB_POOL_MAX,
      poolIdleMs: env.DB_POOL_IDLE_MS,
      namedStatements: env.DB_PREPARED_STATEMENTS === 'named',
      dataDir: env.DATA_DIR,
      embeddedPort: env.EMBEDDED_PG_PORT,
    },
    redisUrl: env.REDIS_URL,
  };
}

function addressSection(env: Env): Pick<Config, 'ports' | 'gatewayUrl' | 'subgraphUrls'> {
  return {
    ports: {
      rest: env.REST_PORT,
      gateway: env.GATEWAY_PORT,
      merchant: env.MERCHANT_PORT,
      outlet: env.OUTLET_PORT,
      transaction: env.TRANSACTION_PORT,
      catalog: env.CATALOG_PORT,
      metrics: env.METRICS_PORT,
    },
    gatewayUrl: env.GATEWAY_URL ?? `http://127.0.0.1:${env.GATEWAY_PORT}/graphql`,
    subgraphUrls: {
      merchant: env.MERCHANT_SUBGRAPH_URL ?? `http://127.0.0.1:${env.MERCHANT_PORT}/graphql`,
      outlet: env.OUTLET_SUBGRAPH_URL ?? `http://127.0.0.1:${env.OUTLET_PORT}/graphql`,
      transaction: env.TRANSACTION_SUBGRAPH_URL ?? `http://127.0.0.1:${env.TRANSACTION_PORT}/graphql`,
      catalog: env.CATALOG_SUBGRAPH_URL ?? `http://127.0.0.1:${env.CATALOG_PORT}/graphql`,
    },
  };
}

/** The secrets that rotate with an overlap, by their key in Config['secrets'] and their variable. */
const ROTATING_SECRETS = {
  principalSecret: { name: 'PRINCIPAL_SECRET', minLength: 16 },
  serviceTokenSecret: { name: 'SERVICE_TOKEN_SECRET', minLength: 16 },
  encryptionKey: { name: 'SECRETS_ENCRYPTION_KEY', minLength: 32 },
  partnerTokenSecret: { name: 'PARTNER_TOKEN_SECRET', minLength: 32 },
  userTokenSecret: { name: 'USER_TOKEN_SECRET', minLength: 32 },
} as const;
export type RotatingSecret = keyof typeof ROTATING_SECRETS;

function previousValues(env: Env, secret: RotatingSecret): string[] {
  const raw = (env as Record<string, unknown>)[`${ROTATING_SECRETS[secret].name}_PREVIOUS`];
  return typeof raw === 'string'
    ? raw
        .split(',')
        .map((value) => value.trim())
        .filter((value) => value !== '')
    : [];
}

/** Previous values shorter than their secret's minimum, or equal to the current value. */
function previousSecretProblems(env: Env): string[] {
  const problems: string[] = [];
  for (const [secret, { name, minLength }] of Object.entries(ROTATING_SECRETS)) {
    const current = (env as Record<string, unknown>)[name];
    for (const value of previousValues(env, secret as RotatingSecret)) {
      if (value.length < minLength) problems.push(`${name}_PREVIOUS: each value must have at least ${minLength} characters`);
      if (value === current) problems.push(`${name}_PREVIOUS: must not repeat ${name}`);
    }
  }
  return problems;
}

function secretsSection(env: Env): Config['secrets'] {
  const current: Record<RotatingSecret, string> = {
    principalSecret: env.PRINCIPAL_SECRET,
    serviceTokenSecret: env.SERVICE_TOKEN_SECRET,
    encryptionKey: env.SECRETS_ENCRYPTION_KEY,
    partnerTokenSecret: env.PARTNER_TOKEN_SECRET,
    userTokenSecret: env.USER_TOKEN_SECRET,
  };
  const accepted = {} as Record<RotatingSecret, readonly string[]>;
  for (const secret of Object.keys(ROTATING_SECRETS) as RotatingSecret[]) {
    accepted[secret] = Object.freeze([current[secret], ...previousValues(env, secret)]);
  }
  return { internalApiKey: env.INTERNAL_API_KEY, ...current, accepted };
}

function behaviourSection(
  env: Env,
  allowCidrs: readonly string[],
): Pick<
  Config,
  | 'referenceCacheTtlSecs'
  | 'gatewayTimeoutMs'
  | 'restSubgraphs'
  | 'http'
  | 'webhooks'
  | 'outboundUrls'
  | 'jobs'
  | 'bankBatch'
  | 'partnerCredentialCacheMs'
> {
  return {
    referenceCacheTtlSecs: env.REFERENCE_CACHE_TTL_SECS,
    gatewayTimeoutMs: env.GATEWAY_TIMEOUT_MS,
    restSubgraphs: env.REST_SUBGRAPHS,
    http: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      connectionTimeoutMs: env.HTTP_CONNECTION_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      trustProxyHops: env.TRUST_PROXY_HOPS,
      drainDelayMs: env.DRAIN_DELAY_MS,
    },
    webhooks: { retryScale: env.WEBHOOK_RETRY_SCALE },
    outboundUrls: { requireHttps: env.NODE_ENV === 'production', allowCidrs },
    jobs: { concurrency: env.JOBS_CONCURRENCY, pollIntervalMs: env.JOBS_POLL_INTERVAL_MS, recoverySecs: env.JOBS_RECOVERY_SECS },
    bankBatch: { max: env.BANK_BATCH_MAX, inFlight: env.BANK_BATCH_IN_FLIGHT },
    partnerCredentialCacheMs: env.PARTNER_CREDENTIAL_CACHE_MS,
  };
}

function liveSection(env: Env): Pick<Config, 'live' | 'paymentFeed' | 'partitions' | 'reconciliation'> {
  const [runHour, runMinute] = env.RECONCILIATION_RUN_AT.split(':').map(Number);
  return {
    reconciliation: {
      runAt: { hour: runHour, minute: runMinute },
      staticMatchSecs: env.RECONCILIATION_STATIC_MATCH_MINUTES * 60,
      settlementDueSecs: env.RECONCILIATION_SETTLEMENT_DUE_HOURS * 3600,
    },
    live: {
      keepAliveMs: env.LIVE_KEEPALIVE_MS,
      pollMs: env.LIVE_POLL_MS,
      maxStreamsPerUser: env.LIVE_MAX_STREAMS_PER_USER,
      maxStreamMs: env.LIVE_MAX_STREAM_MS,
    },
    paymentFeed: { retentionDays: env.PAYMENT_FEED_RETENTION_DAYS, pruneIntervalMs: env.PAYMENT_FEED_PRUNE_INTERVAL_MS },
    partitions: { monthsAhead: env.PARTITION_MONTHS_AHEAD, ensureIntervalMs: env.PARTITION_ENSURE_INTERVAL_MS },
  };
}

function notificationSection(
  env: Env,
): Pick<Config, 'notifications' | 'messagingWebhook' | 'dailySummary' | 'suspension' | 'settlementAccounts' | 'statements'> {
  const [hour, minute] = env.DAILY_SUMMARY_SEND_AT.split(':').map(Number);
  const [runHour, runMinute] = env.SUSPENSION_RUN_AT.split(':').map(Number);
  const [statementHour, statementMinute] = env.STATEMENTS_RUN_AT.split(':').map(Number);
  return {
    statements: { runAt: { hour: statementHour, minute: statementMinute } },
    settlementAccounts: { coolingOffMs: Math.round(env.SETTLEMENT_ACCOUNT_COOLING_OFF_HOURS * 3_600_000) },
    dailySummary: { sendAt: { hour, minute }, catchUpMs: env.DAILY_SUMMARY_CATCH_UP_MINUTES * 60_000 },
    suspension: {
      runAt: { hour: runHour, minute: runMinute },
      inactivityMonths: env.SUSPENSION_INACTIVITY_MONTHS,
      warningDays: env.SUSPENSION_WARNING_DAYS,
      kycValidityMonths: env.KYC_VALIDITY_MONTHS,
    },
    notifications: {
      messaging: { url: env.MESSAGING_PROVIDER_URL, token: env.MESSAGING_PROVIDER_TOKEN },
      push: { url: env.PUSH_PROVIDER_URL, token: env.PUSH_PROVIDER_TOKEN },
      email: { url: env.EMAIL_PROVIDER_URL, token: env.EMAIL_PROVIDER_TOKEN },
      timeoutMs: env.NOTIFICATION_TIMEOUT_MS,
      retryScale: env.NOTIFICATION_RETRY_SCALE,
    },
    messagingWebhook: { verifyToken: env.MESSAGING_WEBHOOK_VERIFY_TOKEN, secret: env.MESSAGING_WEBHOOK_SECRET },
  };
}

function phoneLoginSection(env: Env): Pick<Config, 'otp' | 'userSessionCacheMs' | 'externalVerifier'> {
  return {
    otp: { maxPerPhonePerHour: env.OTP_MAX_PER_PHONE_PER_HOUR, maxPerAddressPerHour: env.OTP_MAX_PER_ADDRESS_PER_HOUR },
    userSessionCacheMs: env.USER_SESSION_CACHE_MS,
    externalVerifier: {
      jwksUrl: env.EXTERNAL_VERIFIER_JWKS_URL,
      issuer: env.EXTERNAL_VERIFIER_ISSUER,
      audience: env.EXTERNAL_VERIFIER_AUDIENCE,
      phoneClaim: env.EXTERNAL_VERIFIER_PHONE_CLAIM,
      timeoutMs: env.EXTERNAL_VERIFIER_TIMEOUT_MS,
    },
  };
}

function gatewaySection(env: Env): Pick<Config, 'operatorTokens' | 'gatewayLimits'> {
  return {
    operatorTokens: {
      secret: env.OPERATOR_TOKEN_SECRET ?? (env.NODE_ENV === 'production' ? undefined : DEV_OPERATOR_TOKEN_SECRET),
      jwksUrl: env.OPERATOR_JWKS_URL,
      issuer: env.OPERATOR_TOKEN_ISSUER,
      audience: env.OPERATOR_TOKEN_AUDIENCE,
    },
    gatewayLimits: {
      trustedDocumentsOnly: env.GATEWAY_TRUSTED_DOCUMENTS_ONLY ?? env.NODE_ENV === 'production',
      maxDepth: env.GATEWAY_MAX_DEPTH,
      maxCost: env.GATEWAY_MAX_COST,
    },
  };
}

function outboundAllowCidrs(value: string): string[] {
  return value.trim() === 'none' ? [] : value.split(',').map((cidr) => cidr.trim());
}

function validCidr(cidr: string): boolean {
  const [address, prefix, ...rest] = cidr.split('/');
  const version = isIP(address ?? '');
  return rest.length === 0 && version !== 0 && /^[0-9]{1,3}$/.test(prefix ?? '') && Number(prefix) <= (version === 4 ? 32 : 128);
}
