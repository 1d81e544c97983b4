import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

export const NORMALIZED_STATUSES = ['success', 'pending', 'failed', 'cancelled', 'refunded', 'reversed'] as const;
export type NormalizedStatus = (typeof NORMALIZED_STATUSES)[number];

/** core-api.md §4 status words, exactly (compared trimmed and case-insensitively). */
const STATUS_WORDS: Record<string, NormalizedStatus> = {
  paid: 'success',
  success: 'success',
  successful: 'success',
  pending: 'pending',
  waiting: 'pending',
  failed: 'failed',
  fail: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  refund: 'refunded',
  refunded: 'refunded',
  reversed: 'reversed',
  reverse: 'reversed',
};
const FAILED_PREFIXES = ['400', '401', '402', '403', '404', '409', '500'];

/**
 * The gateway's status as one of ours (core-api.md §4): a known status word decides; when the status is empty
 * — or a word the table does not know — the responseCode does: prefix 200 success, 202 pending, 400/401/402/403/
 * 404/409/500 failed, anything else (or no code) pending. Unknown therefore never reads as success.
 */
export function normalizeGatewayStatus(status: string | null | undefined, responseCode: string | null | undefined): NormalizedStatus {
  const word = status?.trim().toLowerCase();
  if (word && STATUS_WORDS[word]) return STATUS_WORDS[word];
  const code = responseCode?.trim() ?? '';
  if (code.startsWith('200')) return 'success';
  if (code.startsWith('202')) return 'pending';
  if (FAILED_PREFIXES.some((prefix) => code.startsWith(prefix))) return 'failed';
  return 'pending';
}

/** Largest accepted amount: keeps every sum a safe integer. */
export const MAX_AMOUNT = 1_000_000_000_000_000;

/**
 * A decimal string as whole rupiah: digits, optionally followed by a fraction of zeros ("15000", "15000.00").
 * Fractions of a rupiah, negatives, zero, exponents, separators and anything else are refused (null).
 */
export function parseRupiahAmount(amount: string): number | null {
  const match = /^([0-9]{1,16})(?:\.0+)?$/.exec(amount.trim());
  if (!match) return null;
  const value = Number(match[1]);
  return value >= 1 && value <= MAX_AMOUNT ? value : null;
}

const Text = (max: number) => Type.String({ maxLength: max });
/** One gateway callback (core-api.md §4); string fields as the gateway sends them. */
export const GatewayPayload = Type.Object({
  referenceNo: Type.String({ minLength: 1, maxLength: 128 }),
  merchantId: Type.String({ minLength: 1, maxLength: 64 }),
  terminalId: Type.Optional(Type.Union([Text(64), Type.Null()])),
  amount: Type.String({ minLength: 1, maxLength: 32, description: 'Decimal string in rupiah, e.g. "15000" or "15000.00".' }),
  status: Type.Optional(Type.Union([Text(32), Type.Null()])),
  responseCode: Type.Optional(Type.Union([Text(16), Type.Null()])),
  responseMessage: Type.Optional(Type.Union([Text(500), Type.Null()])),
  partnerReferenceNo: Type.Optional(Type.Union([Text(128), Type.Null()])),
  approvalCode: Type.Optional(Type.Union([Text(64), Type.Null()])),
});
export type GatewayPayload = Static<typeof GatewayPayload>;
const payloadCheck = TypeCompiler.Compile(GatewayPayload);

export interface ParsedCallback {
  referenceNo: string;
  partnerReferenceNo: string | null;
  transactionCode: string;
  merchantKey: string;
  terminalKey: string | null;
  grossAmount: number;
  status: NormalizedStatus;
}

export type ParseResult = { ok: true; value: ParsedCallback } | { ok: false; message: string };

/** Validates one callback and derives what the receiver needs; every refusal names its reason. */
export function parseGatewayCallback(raw: unknown): ParseResult {
  if (!payloadCheck.Check(raw)) {
    const error = payloadCheck.Errors(raw).First();
    return { ok: false, message: error ? `${error.path || 'body'} ${error.message}`.trim() : 'invalid payload' };
  }
  const p = raw;
  const referenceNo = p.referenceNo.trim();
  const merchantKey = p.merchantId.trim();
  if (!referenceNo) return { ok: false, message: 'referenceNo is required' };
  if (!merchantKey) return { ok: false, message: 'merchantId is required' };
  if (!p.status?.trim() && !p.responseCode?.trim()) return { ok: false, message: 'one of status or responseCode is required' };
  const grossAmount = parseRupiahAmount(p.amount);
  if (grossAmount === null) return { ok: false, message: 'amount must be a positive whole number of rupiah (e.g. "15000" or "15000.00")' };
  const partnerReferenceNo = p.partnerReferenceNo?.trim() || null;
  return {
    ok: true,
    value: {
      referenceNo,
      partnerReferenceNo,
      transactionCode: partnerReferenceNo ?? referenceNo,
      merchantKey,
      terminalKey: p.terminalId?.trim() || null,
      grossAmount,
      status: normalizeGatewayStatus(p.status, p.responseCode),
    },
  };
}
