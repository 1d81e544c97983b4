import { AppError, ErrorCode } from '@lib/errors/app-error';

export class BankCodeTakenError extends AppError {
  constructor(code: string) {
    super(`bank ${code} already exists`, ErrorCode.CONFLICT, { reason: 'bank_code_taken' });
  }
}
