import { AppError, ErrorCode, NotFoundError } from '@lib/errors/app-error';

export class OutletNotFoundError extends NotFoundError {
  constructor() {
    super('outlet');
  }
}

export class OutletInputError extends AppError {
  constructor(message: string) {
    super(message, ErrorCode.BAD_USER_INPUT);
  }
}

const CONFLICT_MESSAGES = {
  nmid_taken: 'the NMID is already assigned to another outlet',
  mid_taken: 'the MID is already assigned to another outlet',
  tid_taken: 'the TID is already used by another terminal',
  outlet_code_taken: 'the merchant already has an outlet with this code',
  default_outlet_taken: 'the merchant already has a default outlet',
  /** core-api.md §4: the point-of-sale name of outlet_code_taken. */
  code_conflict: 'the merchant already has an outlet with this code',
} as const;

/** Which unique value was taken: `extensions.reason`, stable for clients (HTTP 409 at the REST adapters). */
export type OutletConflictReason = keyof typeof CONFLICT_MESSAGES;

export class OutletConflictError extends AppError {
  constructor(reason: OutletConflictReason) {
    super(CONFLICT_MESSAGES[reason], ErrorCode.CONFLICT, { reason });
  }
}

/** The unique constraints whose violation is the caller's conflict, not a bug (names fixed by the migrations). */
const REASON_OF_CONSTRAINT: Record<string, OutletConflictReason> = {
  outlets_nmid_key: 'nmid_taken',
  outlets_mid_key: 'mid_taken',
  outlets_merchant_code_live_key: 'outlet_code_taken',
  outlets_one_default_idx: 'default_outlet_taken',
  terminals_tid_key: 'tid_taken',
};

/**
 * A unique violation (SQLSTATE 23505) of one of those constraints as its conflict error: the unique indexes
 * decide the races a check before the write cannot. Anything else comes back unchanged.
 */
export function asConflict(error: unknown): unknown {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  const reason = code === '23505' && constraint ? REASON_OF_CONSTRAINT[constraint] : undefined;
  return reason ? new OutletConflictError(reason) : error;
}
