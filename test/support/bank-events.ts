import { createHmac, randomUUID } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import type { TestStack } from './test-stack';

/** Now as a Jakarta (+07:00) timestamp, shifted by `shiftSecs`: the form banks send. */
export const jakartaNow = (shiftSecs = 0) => new Date(Date.now() + (7 * 3600 + shiftSecs) * 1000).toISOString().replace('Z', '+07:00');

/**
 * The body and headers of one payment event of the demo bank for `POST /psp/v1/events`, signed with its event key
 * as psp-api.md §2 says: a successful QRIS payment on the demo merchant's PUSAT outlet unless `event` says otherwise.
 */
export function demoBankEventRequest(event: Record<string, unknown>): { payload: string; headers: Record<string, string> } {
  return demoBankSignedRequest('/psp/v1/events', {
    event_type: 'qris.payment.success',
    nmid: DEMO.outlets[0].nmid,
    transaction_at: jakartaNow(),
    status: 'success',
    ...event,
  });
}

/** `body` for `POST path` of the bank API (events, settlements), signed with the demo bank's event key. */
export function demoBankSignedRequest(path: string, body: Record<string, unknown>): { payload: string; headers: Record<string, string> } {
  return bankSignedRequest({ keyId: DEMO.bank.eventKeyId, secret: DEMO.bank.eventSecret }, path, body);
}

/** `body` for `POST path` of the bank API (events, settlements), signed with a bank's event key (psp-api.md §5). */
export function bankSignedRequest(
  key: { keyId: string; secret: string },
  path: string,
  body: Record<string, unknown>,
): { payload: string; headers: Record<string, string> } {
  const raw = JSON.stringify(body);
  const timestamp = jakartaNow();
  const signature = createHmac('sha256', key.secret).update(`POST\n${path}\n${timestamp}\n${raw}`).digest('hex');
  return {
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'x-psp-key-id': key.keyId,
      'x-psp-timestamp': timestamp,
      'x-psp-signature': signature,
      'x-request-id': randomUUID(),
    },
  };
}

/** One payment event of the demo bank (demoBankEventRequest) posted to the in-process stack. */
export function postDemoBankEvent(stack: TestStack, event: Record<string, unknown>) {
  return stack.rest.inject({ method: 'POST', url: '/psp/v1/events', ...demoBankEventRequest(event) });
}
