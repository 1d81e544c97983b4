import { AppError, ErrorCode } from '@lib/errors/app-error';

/** The messaging provider did not take the message (unreachable or refused): 503 `messaging_unavailable`. */
export class MessagingUnavailableError extends AppError {
  constructor() {
    super('the messaging provider did not accept the message, retry later', ErrorCode.SERVICE_UNAVAILABLE, {
      reason: 'messaging_unavailable',
      retryAfterSecs: 30,
    });
  }
}
