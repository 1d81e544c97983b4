import { Type } from '@sinclair/typebox';
import { INDONESIAN_PHONE_FORMS } from '@lib/phone/indonesian-phone';
import { Nullable } from '@lib/rest/schema-helpers';

/** Bounds (docs/decisions/0007-input-validation-and-bounds.md): category_code ^[a-z][a-z0-9_]{1,49}$, label 1–100, rating 1–5, message ≤ 2000, Indonesian phone. */
export const FeedbackBody = Type.Object({
  category_code: Type.String({ pattern: '^[a-z][a-z0-9_]{1,49}$' }),
  category_label: Type.String({ minLength: 1, maxLength: 100 }),
  rating: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 5 }))),
  message: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  contact_phone: Type.Optional(Nullable(Type.String({ maxLength: 32, description: `${INDONESIAN_PHONE_FORMS} Empty: none.` }))),
  allow_follow_up: Type.Optional(Nullable(Type.Boolean())),
});

export const FeedbackResponse = Type.Object(
  {
    status: Type.Literal('submitted'),
    feedback: Type.Object(
      {
        id: Type.String({ format: 'uuid' }),
        merchant_id: Nullable(Type.String({ format: 'uuid' })),
        category_code: Type.String(),
        category_label: Type.String(),
        rating: Nullable(Type.Integer()),
        message: Nullable(Type.String()),
        allow_follow_up: Type.Boolean(),
        source: Type.Literal('mobile_app'),
        created_at: Type.String({ format: 'date-time', description: '+08:00.' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
