import { AppError, ErrorCode, NotFoundError } from '@lib/errors/app-error';

/** Point-of-sale input the caller must correct (400 bad_request). */
export class PosInputError extends AppError {
  constructor(message: string) {
    super(message, ErrorCode.BAD_USER_INPUT);
  }
}

/** Missing, deleted, or another merchant's: the same answer (404 not_found, no probing). */
export class PosNotFoundError extends NotFoundError {}

const CONFLICT_MESSAGES = {
  sku_conflict: 'the SKU is already used by a product of the merchant',
  barcode_conflict: 'the barcode is already used by another product',
} as const;
export type PosConflictReason = keyof typeof CONFLICT_MESSAGES;

/** `extensions.reason` becomes the REST error code (409 sku_conflict, barcode_conflict; core-api.md §7). */
export class PosConflictError extends AppError {
  constructor(reason: PosConflictReason) {
    super(CONFLICT_MESSAGES[reason], ErrorCode.CONFLICT, { reason });
  }
}

export class OrderAlreadyVoidedError extends AppError {
  constructor() {
    super('the sales order is already voided', ErrorCode.ORDER_ALREADY_VOIDED);
  }
}

const REASON_OF_CONSTRAINT: Record<string, PosConflictReason> = {
  products_sku_key: 'sku_conflict',
  variants_barcode_key: 'barcode_conflict',
};

/** A unique violation of a POS constraint as its conflict: the indexes decide races a read before the write cannot. */
export function asPosConflict(error: unknown): unknown {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  const reason = code === '23505' && constraint ? REASON_OF_CONSTRAINT[constraint] : undefined;
  return reason ? new PosConflictError(reason) : error;
}

/** Shared text rules of POS inputs. */
export function requireText(field: string, value: string | null | undefined, max: number): string {
  const text = (value ?? '').trim();
  if (!text || text.length > max) throw new PosInputError(`${field} must be 1 to ${max} characters`);
  return text;
}

export function optionalText(field: string, value: string | null | undefined, max: number): string | null {
  if (value == null) return null;
  const text = value.trim();
  if (text.length > max) throw new PosInputError(`${field} must be at most ${max} characters`);
  return text || null;
}

export function requireInt(field: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new PosInputError(`${field} must be an integer from ${min} to ${max}`);
  return value;
}
