import type { FastifyRequest } from 'fastify';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { HttpError } from '@lib/rest/error-body';
import { actingBank, bankSignature } from '@rest-adapters/psp/auth/bank-signature';

export const LIVE_BANK_MESSAGE = 'the sandbox operations are for sandbox bank credentials; a live bank’s keys reach no sandbox';

/** Every sandbox route: signed with the bank's event key, exactly as POST /psp/v1/events. */
export const sandboxSignature = bankSignature('event');

/** The sandbox bank calling; a live bank's credential is 403 `live_bank` before anything is read or written. */
export function sandboxCaller(request: FastifyRequest): BankPrincipal {
  const bank = actingBank(request);
  if (!bank.sandbox) throw new HttpError(403, 'live_bank', LIVE_BANK_MESSAGE);
  return bank;
}

/** What every sandbox route's description ends with. */
export const SANDBOX_ROUTE_NOTES = [
  '',
  'Signed with the sandbox bank’s **event key**, exactly as `POST /psp/v1/events` (X-PSP-Key-ID, X-PSP-Timestamp, X-PSP-Signature).',
  '- **403 `live_bank`**: the key is a live bank’s. Nothing is read or written: live data is never reachable from the sandbox, nor the sandbox from live keys.',
  '',
  'The Sandbox section of the API guide walks through it with curl.',
];

/** The 403 example every sandbox route documents. */
export const SANDBOX_ERRORS = { live_bank: LIVE_BANK_MESSAGE };

export const SANDBOX_BANK = DEMO.sandbox.bank.code;
