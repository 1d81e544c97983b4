import { AppError, ErrorCode, NotFoundError } from '@lib/errors/app-error';

/** The user already has a registration pending or under review (one open registration per user). */
export class RegistrationExistsError extends AppError {
  constructor() {
    super('the user already has an open merchant registration', ErrorCode.CONFLICT, { reason: 'registration_exists' });
  }
}

/** The user already belongs to a merchant that is not deleted: a second one is not registered through the app. */
export class MerchantExistsError extends AppError {
  constructor() {
    super('the user already has a merchant', ErrorCode.CONFLICT, { reason: 'merchant_exists' });
  }
}

export class RegistrationNotFoundError extends NotFoundError {
  constructor() {
    super('merchant registration');
  }
}

/** review and approve name the request by request_id (preferred) or by the phone of its user. */
export class RegistrationKeyError extends AppError {
  constructor() {
    super('give request_id or phone', ErrorCode.BAD_USER_INPUT);
  }
}
