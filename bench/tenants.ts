import { randomInt } from 'node:crypto';
import type { Client as PgClient } from 'pg';
import type { Config } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createBank, grantPartnerAccess, issuePartnerCredential, onboardMerchant } from '@scripts/database-tasks';
import {
  type ClientRequest,
  DEMO_TENANT,
  type PartnerSecret,
  type Tenant,
  type TenantKeys,
  bankPost,
  sendOnce,
  tenantTokens,
} from './demo-clients';
import { progress, sleep, syncBankViewCopy } from './harness';

/**
 * The tenants of `npm run bench:mixed` with BENCH_MIXED_SCALE=k: the demo data's clients, then k − 1 tenants made for
 * the run, each with credentials of its own, so that k times the documented mix stays within every per-credential and
 * per-merchant rate limit (psp-api.md §8, partner-api.md §8). A tenant is made as an operator would
 * (scripts/database-tasks.ts) and filled through the APIs, shaped like what the mix reads of the demo merchant.
 */

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The demo merchant's category (its seed): Kedai Kopi. */
const DEMO_MCC = '5814';

/**
 * Tenant `t` of run `run` (six digits, in every code: secrets are shown once, so each run makes its own): a tier-1
 * bank with one lookup and one event key; an active merchant of it with as many outlets and NMIDs as the demo
 * merchant, its category, and a phone that is also its owner's; contract A and B credentials of the demo partner with
 * the demo credentials' scopes and mode, and an assignment that puts the merchant in the partner's scope.
 */
async function createTenant(config: Config, adminUrl: string, pg: PgClient, run: string, t: number): Promise<TenantKeys> {
  const code = `MX${run}${pad2(t)}`;
  const phone = `+62819${run}${pad2(t)}`;
  const bank = await createBank(config, adminUrl, { code, name: `Bank Bench ${code}`, tier: 'tier1' });
  const merchant = await onboardMerchant(config, adminUrl, {
    name: `Warung Kopi Bench ${code}`,
    bankCode: code,
    nmids: DEMO_TENANT.nmids.map((_, o) => `ID88${run}${pad2(t)}${o}`),
    outlets: DEMO_TENANT.nmids.length,
    categoryCode: DEMO_MCC,
    phone,
    ownerPhone: phone,
  });
  const credential = async ({ name, contract, scopes }: (typeof DEMO.partner.credentials)['contractA' | 'contractB']) => {
    const issued = await issuePartnerCredential(config, adminUrl, {
      partnerCode: DEMO.partner.code,
      name: `${name} (${code})`,
      contract,
      scopes: [...scopes],
      mode: 'jwt',
      outletsEnabled: true,
    });
    return { credentialKey: issued.credential_key, secret: issued.credential_secret } satisfies PartnerSecret;
  };
  const partner = {
    contractA: await credential(DEMO.partner.credentials.contractA),
    contractB: await credential(DEMO.partner.credentials.contractB),
  };
  await grantPartnerAccess(config, adminUrl, { partnerCode: DEMO.partner.code, merchantId: merchant.merchant_id, type: 'assignment' });
  const { rows } = await pg.query<{ user_id: string }>(
    `select user_id from merchant.merchant_users where merchant_id = $1 and role = 'owner'`,
    [merchant.merchant_id],
  );
  return {
    bank: {
      code,
      lookupKeyId: bank.lookup_key_id,
      lookupSecret: bank.lookup_secret,
      eventKeyId: bank.event_key_id,
      eventSecret: bank.event_secret,
    },
    merchantId: merchant.merchant_id,
    phone,
    nmids: merchant.outlets.map((o) => o.nmid!),
    ownerUserId: rows[0].user_id,
    partner,
  };
}

/**
 * `count` requests to `origin`, request i not before i / `perSecond` s and a few in flight (a burst would meet the
 * REST process's load shedding); an answer of 400 or more throws. Paced at a route's documented rate, they leave its
 * rate-limit window no fuller than the measured mix would.
 */
async function paced(origin: string, count: number, perSecond: number, build: (i: number) => ClientRequest): Promise<void> {
  const start = performance.now();
  let next = 0;
  const sender = async () => {
    for (let i = next++; i < count; i = next++) {
      await sleep(Math.max(0, start + (i * 1000) / perSecond - performance.now()));
      await sendOnce(origin, build(i));
    }
  };
  await Promise.all(Array.from({ length: 8 }, sender));
}

/**
 * What the mix reads of the demo merchant, sent for a made tenant's merchant: the demo merchant's transactions of this
 * month (Jakarta) as `transaction.success` events of the tenant's bank at their times and amounts (at the events'
 * 90/s), and as many catalog products through the point-of-sale API (at 10/s, its 600 a minute).
 */
async function fillLikeDemo(rest: string, pg: PgClient, internalKey: string, tenants: TenantKeys[]): Promise<void> {
  const { rows: payments } = await pg.query<{ at: Date; gross: string }>(
    `select transaction_at as at, gross_amount as gross from "transaction".transactions
      where merchant_id = $1 and transaction_at >= date_trunc('month', now() at time zone 'Asia/Jakarta') at time zone 'Asia/Jakarta'`,
    [DEMO.merchantId],
  );
  const { rows } = await pg.query<{ n: number }>(
    'select count(*)::int as n from catalog.products where merchant_id = $1 and deleted_at is null',
    [DEMO.merchantId],
  );
  const products = rows[0].n;
  progress(
    `filling ${tenants.length} tenant(s) like the demo merchant: ${payments.length} transactions this month, ${products} products each …`,
  );
  await Promise.all(
    tenants.map(async (t) => {
      await paced(rest, payments.length, 90, (i) =>
        bankPost(
          '/psp/v1/events',
          {
            external_event_id: `FILL-${t.bank.code}-${i}`,
            event_type: 'transaction.success',
            nmid: t.nmids[i % t.nmids.length],
            gross_amount: Number(payments[i].gross),
            transaction_code: `TRX-FILL-${t.bank.code}-${i}`,
            transaction_at: payments[i].at.toISOString(),
            payer_bank_name: 'BCA',
          },
          t.bank,
        ),
      );
      await paced(rest, products, 10, (i) => ({
        method: 'POST',
        path: '/poslite/catalog/products',
        headers: { 'content-type': 'application/json', 'x-internal-api-key': internalKey, 'x-merchant-id': t.merchantId },
        body: JSON.stringify({ name: `Produk ${i + 1}`, sku: `BENCH-${i + 1}`, sell_price_amount: 10_000 + 500 * i }),
      }));
    }),
  );
}

/** The `k` tenants of a run, the demo's first, each with its tokens; the made ones filled and visible to their banks. */
export async function benchTenants(
  k: number,
  options: { rest: string; pg: PgClient; config: Config; adminUrl: string },
): Promise<Tenant[]> {
  const { rest, pg, config, adminUrl } = options;
  const run = String(randomInt(1_000_000)).padStart(6, '0');
  const made: TenantKeys[] = [];
  for (let t = 2; t <= k; t += 1) made.push(await createTenant(config, adminUrl, pg, run, t));
  if (made.length > 0) {
    progress(`made ${made.length} tenant(s): banks ${made.map((t) => t.bank.code).join(', ')}`);
    // The stack runs no job worker: the new merchants reach the bank views' copies here, before their first event.
    await syncBankViewCopy(adminUrl);
    await fillLikeDemo(rest, pg, config.secrets.internalApiKey, made);
  }
  const tenants: Tenant[] = [];
  for (const keys of [DEMO_TENANT, ...made]) tenants.push({ ...keys, tokens: await tenantTokens(rest, pg, config, keys) });
  return tenants;
}
