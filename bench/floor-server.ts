import { randomUUID } from 'node:crypto';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { SIGNATURE_WINDOW_SECS, hmacHex, signatureMatches, signedString, skewSecs } from '@lib/auth/hmac-signature';
import { EventResponse, PaymentEvent } from '@rest-adapters/psp/routes/events/record/schema';
import { TransactionsB } from '@rest-adapters/partner/routes/merchants/transactions/schema';
import { ByNmidParams } from '@rest-adapters/psp/routes/merchants/by-nmid/schema';
import { PSP_SCHEMAS, PspMerchantDetail } from '@rest-adapters/psp/routes/merchants/psp-merchant.schema';
import { BY_NMID_SQL } from './floor-sql';

/**
 * The floor of the reference-cities benchmark: a bare fastify server that runs the merchant subgraph's
 * cities SQL through a pg.Pool and answers the REST response shape. No gateway, no GraphQL, no ORM, no
 * logging, no metrics: the most any implementation could do on this machine. Run as its own process by
 * bench/reference-cities.ts (the stack's processes are separate too).
 *
 * With FLOOR_PSP=1 it also serves the floors of the PSP benchmark (bench/psp.ts) on the product's own paths, so
 * that the same signed requests reach either server: `GET /api/psp/v1/merchants/by-nmid/:nmid` and
 * `POST /psp/v1/events` (see pspRoutes below). It then creates the schema `bench_floor` at start and drops it
 * when it stops.
 *
 * Environment: DATABASE_URL (required), FLOOR_PORT (default 18082), DB_POOL_MAX (default 10, as the subgraph),
 * FLOOR_PSP (1 = PSP routes), FLOOR_PARTNER (1 = the partner transactions floor of bench/partner.ts).
 */
const CITIES_SQL = 'select id, code, province_id, name, type from merchant.cities where province_id = $1 order by name asc';

interface CityRow {
  id: number;
  code: string;
  province_id: number;
  name: string;
  type: string;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const port = Number(process.env.FLOOR_PORT ?? 18082);
  const pool = new Pool({ connectionString: databaseUrl, max: Number(process.env.DB_POOL_MAX ?? 10), application_name: 'bench-floor' });
  const psp = process.env.FLOOR_PSP === '1';

  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ service: 'floor', status: 'ok' }));
  app.get<{ Querystring: { province_id: number } }>(
    '/floor/cities',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { province_id: { type: 'integer', minimum: 1 } },
          required: ['province_id'],
          additionalProperties: false,
        },
        response: {
          200: {
            type: 'object',
            required: ['items'],
            properties: {
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['id', 'code', 'name', 'type'],
                  properties: { id: { type: 'integer' }, code: { type: 'string' }, name: { type: 'string' }, type: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
    async (req) => {
      const { rows } = await pool.query<CityRow>(CITIES_SQL, [req.query.province_id]);
      return { items: rows.map((r) => ({ id: r.id, code: r.code, name: r.name, type: r.type })) };
    },
  );

  // In their own encapsulated context: their JSON parser, validators and error handler do not touch /floor/cities.
  if (psp) await app.register((child) => pspRoutes(child, pool));
  if (process.env.FLOOR_PARTNER === '1') await app.register((child) => partnerRoutes(child, pool));

  await app.listen({ host: '127.0.0.1', port });
  const stop = () => {
    app
      .close()
      .then(() => (psp ? pool.query(`drop schema if exists ${FLOOR_SCHEMA} cascade`) : undefined))
      .then(() => pool.end())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// ---------------------------------------------------------------------------------------------------------
// Partner floor (FLOOR_PARTNER=1): Contract B's newest `limit` transactions of a merchant in one statement,
// serialised with the product's response schema. No token check, no scope check, no GraphQL.

const PARTNER_TRANSACTIONS_SQL = `select id, transaction_code, status, payment_method, payer_bank_name, gross_amount, mdr_rate, mdr_fee_amount,
         net_amount_after_mdr, currency, transaction_at, settled_at, settlement_status
    from "transaction".transactions where merchant_id = $1 order by transaction_at desc, id desc limit $2`;
const PARTNER_STATUS: Record<string, string> = {
  success: 'success',
  pending: 'pending',
  failed: 'failed',
  cancelled: 'failed',
  refunded: 'refunded',
  reversed: 'refunded',
};

async function partnerRoutes(app: FastifyInstance, pool: Pool): Promise<void> {
  app.get<{ Params: { merchant_id: string }; Querystring: { limit?: number } }>(
    '/floor/partner/merchants/:merchant_id/transactions',
    { schema: { response: { 200: TransactionsB } } },
    async (req) => {
      const { rows } = await pool.query(PARTNER_TRANSACTIONS_SQL, [req.params.merchant_id, Number(req.query.limit ?? 50)]);
      const items = rows.map((t) => ({
        id: t.id,
        merchant_id: req.params.merchant_id,
        transaction_code: t.transaction_code,
        transaction_status: PARTNER_STATUS[t.status],
        payment_method: t.payment_method,
        payment_channel: t.payer_bank_name,
        gross_amount: Number(t.gross_amount),
        mdr_rate: Number(t.mdr_rate),
        mdr_fee_amount: Number(t.mdr_fee_amount),
        net_amount_after_mdr: Number(t.net_amount_after_mdr),
        currency: t.currency,
        transaction_at: t.transaction_at.toISOString(),
        settled_at: t.settled_at?.toISOString() ?? null,
        settlement_status: t.settlement_status,
      }));
      return { merchant_id: req.params.merchant_id, items, count: items.length };
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// PSP floors (FLOOR_PSP=1).

const FLOOR_SCHEMA = 'bench_floor';

/** A bank key as the REST adapter holds it after its credential lookup (cached there for 60 s). */
interface FloorKey {
  keyId: string;
  purpose: 'lookup' | 'event';
  secret: string;
  bankId: string;
  bankCode: string;
  tier: number;
}

const SCHEMES = {
  lookup: { keyId: 'x-api-key-id', timestamp: 'x-timestamp', signature: 'x-signature' },
  event: { keyId: 'x-psp-key-id', timestamp: 'x-psp-timestamp', signature: 'x-psp-signature' },
} as const;

interface MerchantRow {
  id: string;
  name: string;
  legal_name: string | null;
  status: string;
  category_code: string | null;
  category_name: string | null;
  phone: string | null;
  email: string | null;
  npwp: string | null;
  address_line: string | null;
  address_city: string | null;
  address_province: string | null;
  address_postal_code: string | null;
  address_country: string;
  kyc_status: string;
  kyc_verified_at: Date | null;
  bank_code: string | null;
  created_at: Date;
  updated_at: Date;
  merchant_nmid: string | null;
  device_model: string | null;
  device_status: string | null;
}

const BANK_STATUS: Record<string, string> = {
  draft: 'inactive',
  inactive: 'inactive',
  active: 'active',
  suspended: 'suspended',
  deleted: 'deleted',
};

const httpError = (statusCode: number, code: string, error: string) =>
  Object.assign(new Error(error), { statusCode, code, body: { error, code } });

/**
 * `GET /api/psp/v1/merchants/by-nmid/:nmid`: lookup signature, then BY_NMID_SQL, answered with the product's
 * response schema (PspMerchantDetail). `POST /psp/v1/events`: event signature, the product's body schema
 * (PaymentEvent, strict types) and one `insert … on conflict do nothing` into bench_floor.events. Keys are
 * put in memory by the benchmark (`PUT /floor/keys`), as the REST adapter keeps them in its credential cache.
 * No NMID resolution, rate limits, response cache, logging or metrics.
 */
async function pspRoutes(app: FastifyInstance, pool: Pool): Promise<void> {
  await pool.query(`create schema if not exists ${FLOOR_SCHEMA}`);
  await pool.query(`create table if not exists ${FLOOR_SCHEMA}.events (
      id uuid primary key,
      bank_code text not null,
      external_event_id text not null,
      event_type text not null,
      nmid text not null,
      payload jsonb not null,
      received_at timestamptz not null default now(),
      unique (bank_code, external_event_id))`);
  const keys = new Map<string, FloorKey>();

  // Bodies are verified as received (like the REST adapter) and validated without type coercion.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    (req as FastifyRequest & { rawBody?: string }).rawBody = body as string;
    void parseJson(req, body as string, done); // answers through `done`
  });
  const strict = new Ajv({ coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: false, strict: false });
  addFormats(strict);
  const coercing = new Ajv({ coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false, strict: false });
  addFormats(coercing);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
  for (const schema of PSP_SCHEMAS) app.addSchema(schema);
  app.setErrorHandler((error: Error & { statusCode?: number; body?: unknown; validation?: unknown }, _req, reply) => {
    const status = error.validation ? 400 : (error.statusCode ?? 500);
    void reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(error.body ?? { error: error.message, code: status === 400 ? 'bad_request' : 'internal_error' }));
  });

  const verify = (req: FastifyRequest, purpose: 'lookup' | 'event'): FloorKey => {
    const names = SCHEMES[purpose];
    const keyId = req.headers[names.keyId];
    const timestamp = req.headers[names.timestamp];
    const signature = req.headers[names.signature];
    if (typeof keyId !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
      throw httpError(401, 'unauthorized', 'missing signature headers');
    const skew = skewSecs(timestamp);
    if (skew === null || skew > SIGNATURE_WINDOW_SECS) throw httpError(401, 'unauthorized', 'bad timestamp');
    const key = keys.get(keyId);
    if (!key || key.purpose !== purpose) throw httpError(401, 'unauthorized', 'unknown or inactive key');
    const rawBody = (req as FastifyRequest & { rawBody?: string }).rawBody ?? '';
    if (!signatureMatches(hmacHex(key.secret, signedString(req.method, req.url, timestamp, rawBody)), signature)) {
      throw httpError(401, 'unauthorized', 'signature does not match');
    }
    return key;
  };

  app.put<{ Body: { keys: FloorKey[] } }>('/floor/keys', async (req) => {
    for (const key of req.body.keys) keys.set(key.keyId, key);
    return { keys: keys.size };
  });

  app.get<{ Params: { nmid: string } }>(
    '/api/psp/v1/merchants/by-nmid/:nmid',
    {
      // As the REST route: authentication before validation.
      preValidation: async (req) => {
        (req as FastifyRequest & { floorKey?: FloorKey }).floorKey = verify(req, 'lookup');
      },
      schema: { params: ByNmidParams, response: { 200: PspMerchantDetail } },
    },
    async (req) => {
      const key = (req as FastifyRequest & { floorKey?: FloorKey }).floorKey!;
      // Named: prepared once per connection, so PostgreSQL can reuse its plan instead of planning every time.
      const { rows } = await pool.query<MerchantRow>({
        name: 'floor-by-nmid',
        text: BY_NMID_SQL,
        values: [req.params.nmid, key.bankCode, key.bankId, key.tier],
      });
      const m = rows[0];
      if (!m) throw httpError(404, 'not_found', 'no merchant with this NMID');
      return {
        merchant: {
          id: m.id,
          merchant_name: m.name,
          legal_name: m.legal_name,
          nmid: m.merchant_nmid,
          bank_code: m.bank_code,
          category_code: m.category_code,
          category_name: m.category_name,
          phone: m.phone,
          email: m.email,
          npwp: m.npwp,
          address: {
            line: m.address_line,
            city: m.address_city,
            province: m.address_province,
            postal_code: m.address_postal_code,
            country: m.address_country,
          },
          status: BANK_STATUS[m.status] ?? 'inactive',
          kyc_status: m.kyc_status,
          kyc_verified_at: m.kyc_verified_at?.toISOString() ?? null,
          created_at: m.created_at.toISOString(),
          updated_at: m.updated_at.toISOString(),
          device_model: m.device_model,
          device_status: m.device_status,
        },
        outlets: [],
        owners: [],
      };
    },
  );

  app.post<{ Body: PaymentEvent }>(
    '/psp/v1/events',
    {
      preValidation: async (req) => {
        (req as FastifyRequest & { floorKey?: FloorKey }).floorKey = verify(req, 'event');
      },
      schema: { body: PaymentEvent, response: { 200: EventResponse } },
    },
    async (req) => {
      const key = (req as FastifyRequest & { floorKey?: FloorKey }).floorKey!;
      const event = req.body;
      const { rows } = await pool.query<{ id: string }>({
        name: 'floor-event',
        text: `insert into ${FLOOR_SCHEMA}.events (id, bank_code, external_event_id, event_type, nmid, payload) values ($1, $2, $3, $4, $5, $6)
               on conflict (bank_code, external_event_id) do nothing returning id`,
        values: [
          randomUUID(),
          key.bankCode,
          event.external_event_id,
          event.event_type,
          event.nmid,
          (req as FastifyRequest & { rawBody?: string }).rawBody,
        ],
      });
      if (rows[0]) return { status: 'success', flow: 'recorded', event_id: rows[0].id, merchant_id: null };
      // A replay (the benchmark sends none): the first row's id.
      const first = await pool.query<{ id: string }>(
        `select id from ${FLOOR_SCHEMA}.events where bank_code = $1 and external_event_id = $2`,
        [key.bankCode, event.external_event_id],
      );
      return { status: 'duplicate_skipped', flow: 'recorded', event_id: first.rows[0].id, merchant_id: null };
    },
  );
}

main().catch((error: Error) => {
  process.stderr.write(`floor failed: ${error.message}\n`);
  process.exit(1);
});
