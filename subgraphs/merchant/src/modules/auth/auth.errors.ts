import { AppError, ErrorCode } from '@lib/errors/app-error';

/** The code could not be handed to the messaging or email provider; it was discarded, so no cooldown applies. */
export class OtpDeliveryFailedError extends AppError {
  constructor() {
    super('the code could not be sent, retry later', ErrorCode.SERVICE_UNAVAILABLE, { reason: 'otp_delivery_failed', retryAfterSecs: 30 });
  }
}
