import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('AuthSessionGrant', {
  description:
    'A session just opened or refreshed (REST adapters only): the adapter signs the access token for sessionId; refreshToken is shown once.',
})
export class AuthSessionGrantType {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => ID)
  userId!: string;

  @Field({ description: 'E.164.' })
  phone!: string;

  @Field()
  refreshToken!: string;
}

@ObjectType('PhoneResolution')
export class PhoneResolutionType {
  @Field({ description: 'authenticated (trusted device of an existing user) or verification_required.' })
  status!: string;

  @Field()
  phone!: string;

  @Field(() => String, { nullable: true, description: 'new_user or new_device (verification_required only).' })
  reason!: string | null;

  @Field(() => String, { nullable: true, description: 'messaging (verification_required only).' })
  verificationChannel!: string | null;

  @Field(() => AuthSessionGrantType, { nullable: true })
  session!: AuthSessionGrantType | null;
}

@ObjectType('OtpChallenge')
export class OtpChallengeType {
  @Field(() => ID)
  requestId!: string;

  @Field()
  phone!: string;

  @Field()
  method!: string;

  @Field(() => Int)
  expiresInSecs!: number;

  @Field(() => Int)
  retryAfterSecs!: number;
}

@ObjectType('EmailOtpChallenge')
export class EmailOtpChallengeType {
  @Field()
  email!: string;

  @Field(() => Int)
  expiresInSecs!: number;
}

@ObjectType('EmailVerification')
export class EmailVerificationType {
  @Field(() => ID)
  userId!: string;

  @Field()
  email!: string;

  @Field()
  emailVerified!: boolean;
}

@ObjectType('AuthSessionStatus', { description: 'Whether a session is live (REST adapters check bearer tokens with it).' })
export class AuthSessionStatusType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  userId!: string;

  @Field()
  active!: boolean;
}

@InputType('ResolvePhoneInput')
export class ResolvePhoneInput {
  @Field()
  phone!: string;

  @Field(() => String, { nullable: true })
  platformCode?: string | null;

  @Field(() => String, { nullable: true })
  deviceId?: string | null;

  @Field(() => String, { nullable: true })
  deviceName?: string | null;
}

@InputType('RequestLoginOtpInput')
export class RequestLoginOtpInput extends ResolvePhoneInput {
  @Field(() => String, { nullable: true, description: 'messaging (default) or whatsapp.' })
  method?: string | null;

  @Field(() => String, { nullable: true, description: "The client's address as the adapter saw it (hourly cap per address)." })
  clientAddress?: string | null;
}

@InputType('VerifyLoginOtpInput')
export class VerifyLoginOtpInput extends ResolvePhoneInput {
  @Field()
  requestId!: string;

  @Field()
  code!: string;
}

@InputType('ExternalPhoneLoginInput', { description: 'A phone the adapter verified from an identity provider’s ID token.' })
export class ExternalPhoneLoginInput extends ResolvePhoneInput {
  @Field()
  issuer!: string;

  @Field(() => String, { nullable: true })
  subject?: string | null;

  @Field(() => String, { nullable: true })
  requestId?: string | null;

  @Field(() => String, { nullable: true })
  flowMode?: string | null;

  @Field(() => String, { nullable: true })
  fallbackReason?: string | null;

  @Field(() => String, { nullable: true })
  hintPhone?: string | null;
}
