import { AppError, ErrorCode } from '@lib/errors/app-error';

export class PartnerTakenError extends AppError {
  constructor(what: string) {
    super(`${what} is already taken`, ErrorCode.CONFLICT, { reason: 'partner_taken' });
  }
}
