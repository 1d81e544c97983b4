import { type Static, Type } from '@sinclair/typebox';
import { HttpError } from '@lib/rest/error-body';
import type { RouteRuntime } from '@lib/rest/route';
import { Nullable } from '@lib/rest/schema-helpers';
import { UUID_PATTERN } from '@lib/federation/loaders';
import {
  MerchantByGatewayKeyDocument,
  NotifyMerchantTransactionDocument,
  ResolvePaymentTargetDocument,
} from '@rest-adapters/generated/operations';
import type { ParsedCallback } from './gateway-status';

export const TransactionStatusResult = Type.Object(
  {
    status: Type.Literal('processed'),
    reference_no: Type.String(),
    partner_reference_no: Nullable(Type.String()),
    transaction_code: Type.String({ description: 'partnerReferenceNo, else referenceNo.' }),
    transaction_status: Type.Union(['success', 'pending', 'failed', 'cancelled', 'refunded', 'reversed'].map((s) => Type.Literal(s))),
    gross_amount: Type.Integer(),
    merchant_id: Type.String({ format: 'uuid' }),
    merchant_name: Type.String(),
    terminal_id: Nullable(Type.String({ format: 'uuid' })),
    device_id: Nullable(Type.String({ description: 'The terminal’s device serial number, else its id.' })),
    nmid: Nullable(Type.String()),
    status_changed: Type.Boolean({
      description: 'A stored transaction with this code exists and its status differs from the normalized one.',
    }),
    notification_attempted: Type.Boolean({ description: 'True for success: the merchant owners were notified.' }),
    notification: Type.Object(
      {
        status: Type.String({ description: 'sent, failed, no_recipient, opted_out, or not_attempted (not a success).' }),
        sent_count: Type.Integer(),
        failed_count: Type.Integer(),
        invalidated_count: Type.Integer(),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type TransactionStatusResult = Static<typeof TransactionStatusResult>;

/**
 * One gateway callback (core-api.md §4), after validation: resolve the merchant and terminal (outlet NMID or MID,
 * else a merchant UUID, in the outlet subgraph; else the merchant's own NMID in the merchant subgraph, then the
 * outlet subgraph again by that merchant), compare with the stored transaction of that code, and on success
 * notify the owners. Nothing is stored and nothing de-duplicated (as documented): a replayed success notifies again.
 */
export async function processCallback(runtime: RouteRuntime, callback: ParsedCallback): Promise<TransactionStatusResult> {
  const isUuid = UUID_PATTERN.test(callback.merchantKey);
  if (!isUuid && !callback.terminalKey)
    throw new HttpError(400, 'bad_request', 'terminalId is required unless merchantId is a merchant UUID');
  const resolve = async (merchantKey: string) =>
    (
      await runtime.execute(ResolvePaymentTargetDocument, {
        merchantKey,
        terminalKey: callback.terminalKey,
        transactionCode: callback.transactionCode,
      })
    ).paymentTarget;
  // The merchant subgraph knows merchant ids and the merchants' own NMIDs; the outlet subgraph the rest.
  const merchantOf = async (byId: boolean) => {
    const data = await runtime.execute(MerchantByGatewayKeyDocument, {
      nmid: callback.merchantKey,
      id: isUuid ? callback.merchantKey : '00000000-0000-0000-0000-000000000000',
      byId,
    });
    return (byId ? data.merchant : data.merchantByPrimaryNmid) ?? null;
  };
  let target: Awaited<ReturnType<typeof resolve>> = null;
  if (isUuid) {
    if (await merchantOf(true)) target = await resolve(callback.merchantKey);
  } else {
    target = await resolve(callback.merchantKey);
    const owner = target ? null : await merchantOf(false);
    if (owner) target = await resolve(owner.id);
  }
  if (!target) throw new HttpError(404, 'merchant_not_found', 'merchantId matches no outlet NMID or MID, merchant NMID or merchant id');
  if (callback.terminalKey && !target.terminal)
    throw new HttpError(404, 'terminal_not_found', 'terminalId matches no terminal of the merchant');

  const stored = target.merchant.storedTransactionStatus;
  let notification = { status: 'not_attempted', sent_count: 0, failed_count: 0, invalidated_count: 0 };
  const attempted = callback.status === 'success';
  if (attempted) {
    const { notifyMerchantTransaction: n } = await runtime.execute(NotifyMerchantTransactionDocument, {
      input: {
        merchantId: target.merchant.id,
        transactionCode: callback.transactionCode,
        grossAmount: callback.grossAmount,
        referenceNo: callback.referenceNo,
      },
    });
    notification = { status: n.status, sent_count: n.sentCount, failed_count: n.failedCount, invalidated_count: n.invalidatedCount };
  }
  return {
    status: 'processed',
    reference_no: callback.referenceNo,
    partner_reference_no: callback.partnerReferenceNo,
    transaction_code: callback.transactionCode,
    transaction_status: callback.status,
    gross_amount: callback.grossAmount,
    merchant_id: target.merchant.id,
    merchant_name: target.merchant.name,
    terminal_id: target.terminal?.id ?? null,
    device_id: target.terminal ? (target.terminal.serialNumber ?? target.terminal.id) : null,
    nmid: target.nmid,
    status_changed: stored !== null && stored !== callback.status,
    notification_attempted: attempted,
    notification,
  };
}
