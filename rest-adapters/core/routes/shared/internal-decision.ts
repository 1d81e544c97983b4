import { Type } from '@sinclair/typebox';
import { INDONESIAN_PHONE_FORMS } from '@lib/phone/indonesian-phone';
import { Nullable } from '@lib/rest/schema-helpers';

const Phone = Type.String({ minLength: 1, maxLength: 32, description: `The user’s phone. ${INDONESIAN_PHONE_FORMS}` });
const Notes = Type.Optional(Nullable(Type.String({ maxLength: 500 })));
const Reviewer = Type.Optional(Nullable(Type.String({ format: 'uuid' })));

/** review and approve: the request by request_id (preferred) or by its user's phone; one of them is required. */
export const RegistrationDecisionBody = Type.Object({
  request_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  phone: Type.Optional(Nullable(Phone)),
  review_notes: Notes,
  reviewed_by_user_id: Reviewer,
});

export const MerchantStatusBody = Type.Object({
  merchant_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  phone: Type.Optional(Nullable(Phone)),
  target_status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('deleted')]),
  reason: Type.Optional(
    Nullable(
      Type.Union(
        [
          Type.Literal('kyc_expired'),
          Type.Literal('violation'),
          Type.Literal('operator_action'),
          Type.Literal('inactivity'),
          Type.Literal('merchant_request'),
        ],
        {
          description: 'Sent to the bank with a suspension (default operator_action) or deletion (default the review notes).',
        },
      ),
    ),
  ),
  review_notes: Notes,
  reviewed_by_user_id: Reviewer,
});
