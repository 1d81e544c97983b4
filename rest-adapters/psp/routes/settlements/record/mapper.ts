import type { Principal } from '@lib/auth/principal';
import { HttpError } from '@lib/rest/error-body';
import type { PspRecordSettlementMutation } from '@rest-adapters/generated/operations';
import type { PaymentTarget } from '@rest-adapters/psp/routes/shared/payment-target';
import type { SettlementRejection, SettlementRequest, SettlementResponse } from './schema';

/** net = gross − mdr_total, and the batch is the caller's own (bank_code); anything else changes nothing. */
export function assertConsistent(body: SettlementRequest, principal: Principal | undefined): void {
  if (principal?.kind !== 'bank' || body.bank_code !== principal.bankCode) {
    throw new HttpError(400, 'bad_request', 'bank_code must be the calling bank’s code');
  }
  if (body.net_amount !== body.gross_amount - body.mdr_total) {
    throw new HttpError(400, 'bad_request', `net_amount must equal gross_amount − mdr_total (${body.gross_amount - body.mdr_total})`);
  }
}

export function toSettlementInput(body: SettlementRequest, payload: Record<string, unknown>, target: PaymentTarget | null) {
  return {
    externalEventId: body.external_event_id,
    settlementId: body.settlement_id,
    nmid: body.nmid,
    grossAmount: body.gross_amount,
    mdrTotal: body.mdr_total,
    netAmount: body.net_amount,
    settlementDate: body.settlement_date,
    completedAt: body.completed_at,
    payload,
    outletId: target?.outletId ?? null,
    merchantId: target?.merchantId ?? null,
  };
}

type SettlementResult = PspRecordSettlementMutation['recordSettlement'];

/** A stored settlement that was not applied (errorCode set): the 422 body. */
export function toSettlementRejection(r: SettlementResult): SettlementRejection {
  return {
    error: 'settlement stored but not applied: the NMID is not one of this bank’s',
    code: r.errorCode as SettlementRejection['code'],
    settlement_ref: r.settlementRef,
    settlement_id: r.settlementId,
  };
}

export function toSettlementResponse(r: SettlementResult): SettlementResponse {
  return {
    status: r.status as SettlementResponse['status'],
    settlement_ref: r.settlementRef,
    settlement_id: r.settlementId,
    matched_count: r.matchedCount,
    matched_amount: r.matchedAmount,
    gross_amount: r.grossAmount,
    discrepancy_amount: r.discrepancyAmount,
    reconciled: r.reconciled,
  };
}
