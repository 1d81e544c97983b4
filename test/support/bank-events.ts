import { createHmac, randomUUID } from 'node:crypto';
import { DEMO } from '@lib/demo/demo-ids';
import type { TestStack } from './test-stack';

/** Now as a Jakarta (+07:00) timestamp, shifted by `shiftSecs`: the form banks send. */
export const jakartaNow = (shiftSecs = 0) => new Date(Date.now() + (7 * 3600 + shiftSecs) * 1000).toISOString().replace('Z', '+07:00');

/**
 * One payment event posted by the demo bank to `POST /psp/v1/events`, signed with its event key as psp-api.md §2
 * says: a successful QRIS payment on the demo merchant's PUSAT outlet unless `event` says otherwise.
 */
export function postDemoBankEvent(stack: TestStack, event: Record<string, unknown>) {
  const raw = JSON.stringify({
    event_type: 'qris.payment.success',
    nmid: DEMO.outlets[0].nmid,
    transaction_at: jakartaNow(),
    status: 'success',
    ...event,
  });
  const timestamp = jakartaNow();
  const signature = createHmac('sha256', DEMO.bank.eventSecret).update(`POST\n/psp/v1/events\n${timestamp}\n${raw}`).digest('hex');
  return stack.rest.inject({
    method: 'POST',
    url: '/psp/v1/events',
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'x-psp-key-id': DEMO.bank.eventKeyId,
      'x-psp-timestamp': timestamp,
      'x-psp-signature': signature,
      'x-request-id': randomUUID(),
    },
  });
}
