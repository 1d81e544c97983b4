import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '@lib/rest/error-body';
import type { PartnerPrincipal } from '../auth/partner-auth';

/**
 * Stored merchant lifecycle → partner merchant status (partner-api.md §3, DESIGN.md §9). draft and inactive are
 * `inactive`; a registration still under review (the merchant subgraph lists referred ones as `pending_review`)
 * is `pending_review`; deleted merchants are never listed (the merchant subgraph leaves them out).
 */
const MERCHANT_STATUS: Record<string, PartnerMerchantStatus> = {
  active: 'active',
  suspended: 'suspended',
  draft: 'inactive',
  inactive: 'inactive',
  pending_review: 'pending_review',
};
export type PartnerMerchantStatus = 'active' | 'pending_review' | 'inactive' | 'suspended';
export const toPartnerMerchantStatus = (stored: string): PartnerMerchantStatus => MERCHANT_STATUS[stored] ?? 'inactive';
export const MerchantStatusSchema = Type.Union([
  Type.Literal('active'),
  Type.Literal('pending_review'),
  Type.Literal('inactive'),
  Type.Literal('suspended'),
]);

/** Stored transaction status → partner enum: cancelled is `failed`, reversed is `refunded`. */
export type PartnerTransactionStatus = 'success' | 'pending' | 'failed' | 'refunded';
const TRANSACTION_STATUS: Record<string, PartnerTransactionStatus> = {
  success: 'success',
  pending: 'pending',
  failed: 'failed',
  cancelled: 'failed',
  refunded: 'refunded',
  reversed: 'refunded',
};
export const toPartnerTransactionStatus = (stored: string): PartnerTransactionStatus => TRANSACTION_STATUS[stored] ?? 'failed';
/** The stored statuses behind one partner status (the filter of Contract B). */
export const storedStatusesOf = (status: PartnerTransactionStatus): string[] =>
  Object.keys(TRANSACTION_STATUS).filter((s) => TRANSACTION_STATUS[s] === status);
export const TransactionStatusSchema = Type.Union([
  Type.Literal('success'),
  Type.Literal('pending'),
  Type.Literal('failed'),
  Type.Literal('refunded'),
]);

/**
 * The acting principal for data operations after requireMerchantAccess / partnerMerchants: the partner,
 * extended with the merchants verified in scope, which the transaction subgraph requires (defense in depth).
 */
export function scopedTo(principal: PartnerPrincipal, merchantIds: string[]): PartnerPrincipal {
  return { ...principal, merchantIds };
}

/** The partner in the path must be the caller (403 forbidden otherwise: no probing of other partners). */
export function requireOwnPartner(principal: PartnerPrincipal, partnerId: string): void {
  if (principal.partnerId.toLowerCase() !== partnerId.toLowerCase())
    throw new HttpError(403, 'forbidden', 'partner_id is not the calling partner');
}

export function partnerCodeOf(req: FastifyRequest): string {
  return req.partnerCredential?.partnerCode ?? '';
}

export const PartnerIdParams = Type.Object({ partner_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export const MerchantIdParams = Type.Object({ merchant_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

/** One of two contract schemas (each additionalProperties: false, so unlisted fields never leave). */
export function eitherContract<A, B>(a: import('@sinclair/typebox').TSchema, b: import('@sinclair/typebox').TSchema) {
  return Type.Unsafe<A | B>({ oneOf: [a, b] });
}
