import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { ForbiddenError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import {
  AuthSessionGrantType,
  AuthSessionStatusType,
  EmailOtpChallengeType,
  EmailVerificationType,
  ExternalPhoneLoginInput,
  OtpChallengeType,
  PhoneResolutionType,
  RequestLoginOtpInput,
  ResolvePhoneInput,
  VerifyLoginOtpInput,
} from './auth.type';

/** Phone login for the core REST adapter (service principals), and the calling user's own session and email. */
@Resolver()
export class AuthResolver {
  @Authorized('service')
  @Mutation(() => PhoneResolutionType, {
    description: 'A session for a trusted device of an existing user, else what verification is required.',
  })
  async resolvePhone(@Arg('input') input: ResolvePhoneInput, @Ctx() ctx: MerchantContext): Promise<PhoneResolutionType> {
    const r = await ctx.services.auth.resolvePhone(input);
    return r.status === 'authenticated'
      ? { status: r.status, phone: r.phone, reason: null, verificationChannel: null, session: r.grant }
      : { status: r.status, phone: r.phone, reason: r.reason, verificationChannel: r.verificationChannel, session: null };
  }

  @Authorized('service')
  @Mutation(() => OtpChallengeType, { description: 'Sends a login code (cooldown 60 s, hourly caps per phone and address).' })
  requestLoginOtp(@Arg('input') input: RequestLoginOtpInput, @Ctx() ctx: MerchantContext): Promise<OtpChallengeType> {
    return ctx.services.auth.requestLoginOtp(input);
  }

  @Authorized('service')
  @Mutation(() => AuthSessionGrantType, {
    description: 'Verifies a login code: user created if absent, device trusted, session opened, login_alert queued.',
  })
  verifyLoginOtp(@Arg('input') input: VerifyLoginOtpInput, @Ctx() ctx: MerchantContext): Promise<AuthSessionGrantType> {
    return ctx.services.auth.verifyLoginOtp(input);
  }

  @Authorized('service')
  @Mutation(() => AuthSessionGrantType, { description: 'Opens a session for a phone the adapter verified with the identity provider.' })
  externalPhoneLogin(@Arg('input') input: ExternalPhoneLoginInput, @Ctx() ctx: MerchantContext): Promise<AuthSessionGrantType> {
    return ctx.services.auth.externalLogin(input);
  }

  @Authorized('service')
  @Mutation(() => AuthSessionGrantType, { description: 'Rotates a refresh token; a reused one revokes its session.' })
  refreshSession(@Arg('refreshToken') refreshToken: string, @Ctx() ctx: MerchantContext): Promise<AuthSessionGrantType> {
    return ctx.services.session.refresh(refreshToken);
  }

  @Authorized('service')
  @Mutation(() => Boolean, { description: 'Uses a login_alert cancel link: that login’s session is revoked and its device untrusted.' })
  async cancelDeviceLogin(@Arg('token') token: string, @Ctx() ctx: MerchantContext): Promise<boolean> {
    await ctx.services.session.cancelLogin(token);
    return true;
  }

  @Authorized('service')
  @Query(() => AuthSessionStatusType, { nullable: true, description: "A login session's liveness (REST adapters' bearer checks)." })
  authSession(
    @Arg('sessionId', () => ID, { description: 'Session id from the access token.' }) sessionId: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<AuthSessionStatusType | null> {
    return ctx.services.session.status(sessionId);
  }

  @Authorized('user')
  @Mutation(() => Boolean, { description: "Ends the calling user's session (the one of the access token)." })
  async logout(@Ctx() ctx: MerchantContext): Promise<boolean> {
    if (ctx.principal.kind !== 'user' || !ctx.principal.sessionId) throw new ForbiddenError();
    await ctx.services.session.revoke(ctx.principal.sessionId, 'logout');
    return true;
  }

  @Authorized('user')
  @Mutation(() => EmailOtpChallengeType)
  requestEmailOtp(
    @Arg('email') email: string,
    @Arg('clientAddress', () => String, { nullable: true }) clientAddress: string | null,
    @Ctx() ctx: MerchantContext,
  ): Promise<EmailOtpChallengeType> {
    if (ctx.principal.kind !== 'user') throw new ForbiddenError();
    return ctx.services.auth.requestEmailOtp(ctx.principal.userId, email, clientAddress);
  }

  @Authorized('user')
  @Mutation(() => EmailVerificationType)
  verifyEmailOtp(@Arg('email') email: string, @Arg('code') code: string, @Ctx() ctx: MerchantContext): Promise<EmailVerificationType> {
    if (ctx.principal.kind !== 'user') throw new ForbiddenError();
    return ctx.services.auth.verifyEmailOtp(ctx.principal.userId, email, code);
  }
}
