import { AppError, ErrorCode } from '@lib/errors/app-error';

export type MemberConflictReason = 'already_member' | 'last_owner';

export class MemberConflictError extends AppError {
  constructor(reason: MemberConflictReason, message: string) {
    super(message, ErrorCode.CONFLICT, { reason });
  }
}
