import { Arg, Authorized, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { BadInputError, ForbiddenError } from '@lib/errors/app-error';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { MessagingUnavailableError } from './notification.errors';
import { MessageSendResultType, MessagingStatusInput, PushSendResultType, PushTokenInput, TestPushInput } from './notification.type';

@Resolver()
export class NotificationResolver {
  @Authorized('user')
  @Mutation(() => Boolean, { description: "Registers the calling user's push token for a device." })
  async registerPushToken(@Arg('input') input: PushTokenInput, @Ctx() ctx: MerchantContext): Promise<boolean> {
    if (ctx.principal.kind !== 'user') throw new ForbiddenError();
    await ctx.services.notification.registerPushToken(ctx.principal.userId, input);
    return true;
  }

  @Authorized('internal')
  @Mutation(() => MessageSendResultType, {
    description: 'Sends a one-time password as the messaging template `otp` (internal operations).',
  })
  async sendOtpMessage(
    @Arg('phone') phone: string,
    @Arg('code') code: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<MessageSendResultType> {
    if (!/^[0-9]{4,8}$/.test(code)) throw new BadInputError('code must be 4 to 8 digits');
    const result = await ctx.services.notification.sendMessage(phone, 'otp', { code });
    if (result.status === 'failed') throw new MessagingUnavailableError();
    return { status: 'queued', deliveryStatus: result.status };
  }

  @Authorized('internal')
  @Mutation(() => PushSendResultType, { description: 'Sends a push to every live token of the phone’s user (internal operations).' })
  async sendTestPush(@Arg('input') input: TestPushInput, @Ctx() ctx: MerchantContext): Promise<PushSendResultType> {
    const phone = toIndonesianE164(input.phone);
    if (!phone) throw new BadInputError('phone must be an Indonesian number (08…, 628… or +628…)');
    if (!input.title.trim() || !input.body.trim()) throw new BadInputError('title and body are required');
    const result = await ctx.services.notification.sendPushToPhone(phone, {
      title: input.title,
      body: input.body,
      data: { type: input.type ?? 'test', screen: input.screen, reference_id: input.referenceId, merchant_id: input.merchantId },
    });
    return { status: 'queued', phone, ...result };
  }

  @Authorized('service')
  @Mutation(() => Int, {
    description:
      'Applies delivery statuses from the messaging provider webhook (signature checked by the adapter); unknown ids are ignored.',
  })
  recordMessagingStatuses(
    @Arg('statuses', () => [MessagingStatusInput]) statuses: MessagingStatusInput[],
    @Ctx() ctx: MerchantContext,
  ): Promise<number> {
    return ctx.services.notification.applyDeliveryStatuses(
      statuses.map((s) => ({
        messageId: s.id,
        status: s.status,
        at: /^[0-9]{1,12}$/.test(s.timestamp) ? new Date(Number(s.timestamp) * 1000) : new Date(),
      })),
    );
  }
}
