import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { mdrFeeOf } from '../modules/mdr/mdr';
import { insertTransactionsClaimingCodes } from '../modules/transaction/transaction-codes';

const DAY = 86_400_000;
/** Thirteen months and a bit: scoring looks at the last 12 complete months plus the current one (docs/scoring.md). */
export const HISTORY_DAYS = 400;
const MDR_RATE = '0.0070';

/** Deterministic pseudo-random numbers (mulberry32), so every machine gets the same demo history. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const uuid = (merchantIndex: number, kind: number, n: number) =>
  `019a0001-${String(merchantIndex).padStart(4, '0')}-7000-8${kind}00-${n.toString(16).padStart(12, '0')}`;

/**
 * The referred demo merchants' history (npm start's demo data, issue 4): about 400 days of QRIS payments per
 * outlet ending four days ago (so the demo bank's twelve recent transactions of the last 77 hours stay the demo
 * merchant's newest whatever the hour), with a slow upward trend, a few failures and refunds, and one settlement per outlet
 * and Jakarta business day — mostly on the next day (on time), some late — so that the partner API's
 * transactions, outlets and scoring have something to show. Fixed ids: seeding again inserts nothing.
 */
export async function seedTransactionHistory(em: EntityManager, now = Date.now()): Promise<Record<string, number>> {
  const knex = em.getKnex();
  const merchants = [
    { index: 1, id: DEMO.merchantId, outlets: DEMO.outlets.map((o) => ({ id: o.id, nmid: o.nmid })), perDay: 6, ticket: 28_000 },
    {
      index: 3,
      id: DEMO.otherMerchants[1].id,
      outlets: DEMO.otherMerchants[1].outlets.map((o) => ({ id: o.id, nmid: o.nmid })),
      perDay: 4,
      ticket: 65_000,
    },
  ];
  let transactions = 0;
  let settlements = 0;
  const end = Math.floor(now / DAY) * DAY - 3 * DAY;
  for (const merchant of merchants) {
    const next = random(merchant.index * 7919);
    const txRows: Record<string, unknown>[] = [];
    const settlementRows: Record<string, unknown>[] = [];
    let n = 0;
    for (let day = HISTORY_DAYS; day >= 1; day--) {
      const dayStart = end - day * DAY; // 07:00 WIB of that Jakarta day
      const trend = 0.7 + 0.3 * ((HISTORY_DAYS - day) / HISTORY_DAYS);
      merchant.outlets.forEach((outlet, o) => {
        const settlementId = uuid(merchant.index, 2, day * 10 + o);
        const late = next() < 0.07;
        const settledAt = new Date(dayStart + DAY + (late ? 2 * DAY : 3 * 3_600_000));
        let gross = 0;
        let fees = 0;
        let count = 0;
        const count_today = Math.max(1, Math.round(merchant.perDay * trend * (0.6 + next() * 0.8)));
        for (let k = 0; k < count_today; k++) {
          n++;
          const amount = Math.round((merchant.ticket * (0.4 + next() * 1.2)) / 500) * 500;
          const roll = next();
          const status = roll < 0.03 ? 'failed' : roll < 0.04 ? 'refunded' : 'success';
          const fee = status === 'failed' ? 0 : mdrFeeOf(amount, MDR_RATE);
          const at = new Date(dayStart + Math.floor(next() * 14 * 3_600_000));
          const settled = status === 'success';
          if (settled) {
            gross += amount;
            fees += fee;
            count++;
          }
          txRows.push({
            id: uuid(merchant.index, 1, n),
            merchant_id: merchant.id,
            outlet_id: outlet.id,
            bank_code: DEMO.bank.code,
            nmid: outlet.nmid,
            transaction_code: `TRX-H${merchant.index}-${String(n).padStart(6, '0')}`,
            external_reference: `REF-H${merchant.index}-${String(n).padStart(6, '0')}`,
            status,
            gross_amount: amount,
            payer_bank_code: 'BDEMO',
            payer_bank_name: 'Bank Demo',
            mdr_rate: fee > 0 ? MDR_RATE : '0.0000',
            mdr_fee_amount: fee,
            net_amount_after_mdr: amount - fee,
            refunded_amount: status === 'refunded' ? amount : 0,
            transaction_at: at,
            created_at: at,
            updated_at: at,
            settlement_status: settled ? 'settled' : 'unsettled',
            settled_at: settled ? settledAt : null,
            settlement_ref: settled ? settlementId : null,
          });
        }
        settlementRows.push({
          id: settlementId,
          bank_code: DEMO.bank.code,
          external_event_id: `EVT-SETL-H${merchant.index}-${day}-${o}`,
          settlement_id: `SETL-H${merchant.index}-${day}-${o}`,
          nmid: outlet.nmid,
          merchant_id: merchant.id,
          outlet_id: outlet.id,
          gross_amount: gross,
          mdr_total: fees,
          net_amount: gross - fees,
          settlement_date: new Date(dayStart).toISOString().slice(0, 10),
          completed_at: settledAt,
          payload: { demo: true },
          status: 'success',
          matched_count: count,
          matched_amount: gross,
          received_at: settledAt,
        });
      });
    }
    for (let i = 0; i < settlementRows.length; i += 1000) {
      settlements += (
        await knex('transaction.settlements')
          .insert(settlementRows.slice(i, i + 1000))
          .onConflict('id')
          .ignore()
          .returning('id')
      ).length;
    }
    for (let i = 0; i < txRows.length; i += 1000) {
      transactions += (await insertTransactionsClaimingCodes(knex, txRows.slice(i, i + 1000))).length;
    }
  }
  return { history_transactions: transactions, history_settlements: settlements };
}
