import { Repository } from '@lib/db/repository';
import { Settlement } from './settlement.entity';

/** The zone of settlement business dates (psp-api.md: banks settle per Indonesian western-time day). */
export const SETTLEMENT_TIME_ZONE = 'Asia/Jakarta';

const SETTLEMENT_COLUMNS = [
  'id',
  'bank_code',
  'external_event_id',
  'settlement_id',
  'nmid',
  'merchant_id',
  'outlet_id',
  'gross_amount',
  'mdr_total',
  'net_amount',
  `to_char(settlement_date, 'YYYY-MM-DD') as settlement_date`,
  'completed_at',
  'payload',
  'status',
  'error_code',
  'matched_count',
  'matched_amount',
  'received_at',
].join(', ');

/** A settlement as the intake first stores it. */
export interface NewSettlement {
  id: string;
  bankCode: string;
  externalEventId: string;
  settlementId: string;
  nmid: string;
  merchantId: string | null;
  outletId: string | null;
  grossAmount: number;
  mdrTotal: number;
  netAmount: number;
  settlementDate: string;
  completedAt: Date;
  payload: unknown;
  status: string;
  errorCode: string | null;
  receivedAt: Date;
}

/** The settlement intake's statements, inside its transaction: the settlements and the transactions they settle. */
export class SettlementRepository extends Repository {
  /** Stores the settlement unless its (bank, settlement_id) or (bank, external_event_id) is taken; whether it was stored. */
  async claim(s: NewSettlement): Promise<boolean> {
    const claimed = await this.db('transaction.settlements')
      .insert({
        id: s.id,
        bank_code: s.bankCode,
        external_event_id: s.externalEventId,
        settlement_id: s.settlementId,
        nmid: s.nmid,
        merchant_id: s.merchantId,
        outlet_id: s.outletId,
        gross_amount: s.grossAmount,
        mdr_total: s.mdrTotal,
        net_amount: s.netAmount,
        settlement_date: s.settlementDate,
        completed_at: s.completedAt,
        payload: JSON.stringify(s.payload),
        status: s.status,
        error_code: s.errorCode,
        received_at: s.receivedAt,
      })
      // No conflict target: either unique pair (or both) makes it a replay.
      .onConflict()
      .ignore()
      .returning('id');
    return claimed.length > 0;
  }

  /** The bank's first settlement with this settlement_id or external_event_id. */
  firstOf(bankCode: string, settlementId: string, externalEventId: string): Promise<Settlement> {
    return this.first(bankCode, settlementId, externalEventId, '');
  }

  /** As firstOf, locked for update: concurrent replays of an unapplied settlement take turns. */
  lockFirst(bankCode: string, settlementId: string, externalEventId: string): Promise<Settlement> {
    return this.first(bankCode, settlementId, externalEventId, ' for update');
  }

  private async first(bankCode: string, settlementId: string, externalEventId: string, lock: '' | ' for update'): Promise<Settlement> {
    const [first] = await this.rows(
      `select ${SETTLEMENT_COLUMNS} from "transaction".settlements
            where bank_code = ? and (settlement_id = ? or external_event_id = ?) order by received_at, id limit 1${lock}`,
      [bankCode, settlementId, externalEventId],
    );
    return this.em.map(Settlement, first);
  }

  /** A new attempt of a stored, unapplied settlement: this delivery's body, target and outcome; id, ids and received_at kept. */
  async replaceAttempt(id: string, s: NewSettlement): Promise<void> {
    await this.db('transaction.settlements')
      .where({ id })
      .update({
        nmid: s.nmid,
        merchant_id: s.merchantId,
        outlet_id: s.outletId,
        gross_amount: s.grossAmount,
        mdr_total: s.mdrTotal,
        net_amount: s.netAmount,
        settlement_date: s.settlementDate,
        completed_at: s.completedAt,
        payload: JSON.stringify(s.payload),
        status: s.status,
        error_code: s.errorCode,
      });
  }

  async byId(id: string): Promise<Settlement> {
    const [row] = await this.rows(`select ${SETTLEMENT_COLUMNS} from "transaction".settlements where id = ?`, [id]);
    return this.em.map(Settlement, row);
  }

  /**
   * Settles the bank's unsettled `success` transactions of the outlet or NMID whose transaction_at falls on
   * `settlementDate` in Asia/Jakarta (settled_at = completedAt, settlement_ref = the settlement), and writes what
   * matched onto the settlement; the settlement as updated.
   */
  async settle(
    settlementId: string,
    match: { bankCode: string; outletId: string; nmid: string; settlementDate: string; completedAt: Date },
  ): Promise<Settlement> {
    // The Jakarta day as UTC bounds, by PostgreSQL's time-zone database: [midnight, next midnight).
    // Concurrent settlements of the same day each re-check settlement_status on the locked rows: one wins each.
    const [row] = await this.rows(
      `with settled as (
           update "transaction".transactions
              set settlement_status = 'settled', settled_at = ?, settlement_ref = ?, updated_at = now()
            where bank_code = ? and status = 'success' and settlement_status = 'unsettled'
              and (outlet_id = ? or nmid = ?)
              and transaction_at >= (?::date)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}'
              and transaction_at < (?::date + 1)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}'
           returning gross_amount
         )
         update "transaction".settlements
            set matched_count = (select count(*) from settled), matched_amount = (select coalesce(sum(gross_amount), 0) from settled)
          where id = ?
         returning ${SETTLEMENT_COLUMNS}`,
      [
        match.completedAt,
        settlementId,
        match.bankCode,
        match.outletId,
        match.nmid,
        match.settlementDate,
        match.settlementDate,
        settlementId,
      ],
    );
    return this.em.map(Settlement, row);
  }
}
