import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

/** All optional; absent or null keeps the value, an empty string clears it (docs/decisions/0007-input-validation-and-bounds.md). */
export const UpdateProfileBody = Type.Object({
  full_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  nik: Type.Optional(Nullable(Type.String({ maxLength: 16, description: '16 digits.' }))),
  gender: Type.Optional(Nullable(Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('')]))),
  address_line: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  avatar_url: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: 'An https URL.' }))),
  email: Type.Optional(Nullable(Type.String({ maxLength: 254, description: 'A change resets email_verified.' }))),
});
