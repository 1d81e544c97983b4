import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { mdrFeeOf } from '../modules/mdr/mdr';
import { insertTransactionsClaimingCodes } from '../modules/transaction/transaction-codes';
import { ensurePartitions } from '../modules/partition/partition.service';
import { HISTORY_DAYS, seedTransactionHistory } from './history.seed';

const HOUR = 3_600_000;
/**
 * The demo merchant (a coffee shop, MCC 5814: the regular segment) is a micro business (UMI), and its demo payments are
 * all below Rp500.000: the policy's 0 % band since 1 December 2024 (docs/decisions/0240-mdr-policy.md).
 */
const DEMO_MDR_RATE = '0.0000';

/** Twelve transactions of the demo bank over the last days, mostly successful, spread over both demo outlets; then the referred merchants' history. */
export async function seedTransactionDemo(em: EntityManager): Promise<Record<string, number>> {
  const now = Date.now();
  const statuses = [
    'success',
    'success',
    'success',
    'failed',
    'success',
    'success',
    'pending',
    'success',
    'success',
    'refunded',
    'success',
    'success',
  ];
  const rows = statuses.map((status, i) => {
    const gross = 15_000 + i * 7_500;
    const mdrFee = status === 'success' || status === 'refunded' ? mdrFeeOf(gross, DEMO_MDR_RATE) : 0;
    const outlet = DEMO.outlets[i % 2];
    return {
      id: `019a0000-0000-7000-8000-0000000f${String(i + 1).padStart(4, '0')}`,
      merchant_id: DEMO.merchantId,
      outlet_id: outlet.id,
      bank_code: DEMO.bank.code,
      nmid: outlet.nmid,
      transaction_code: `TRX-DEMO-${String(i + 1).padStart(4, '0')}`,
      external_reference: `REF-DEMO-${String(i + 1).padStart(4, '0')}`,
      status,
      gross_amount: gross,
      payer_bank_code: 'BDEMO',
      payer_bank_name: 'Bank Demo',
      mdr_rate: DEMO_MDR_RATE,
      mdr_fee_amount: mdrFee,
      net_amount_after_mdr: gross - mdrFee,
      refunded_amount: status === 'refunded' ? gross : 0,
      transaction_at: new Date(now - i * 7 * HOUR),
      created_at: new Date(now - i * 7 * HOUR),
      updated_at: new Date(now - i * 7 * HOUR),
    };
  });
  // The history's months get partitions of their own rather than filling the history catch-all (months ahead are the
  // transaction process's to create: docs/decisions/0208-partitioned-history.md).
  await ensurePartitions(em, 0, { from: new Date(now - (HISTORY_DAYS + 5) * 24 * HOUR) });
  const inserted = await insertTransactionsClaimingCodes(em.getKnex(), rows);
  return { transactions: inserted.length, ...(await seedTransactionHistory(em, now)) };
}
