import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { OPERATOR_WRITES, assertOperatorRole } from '@lib/domain/access/operator-roles';
import { BadInputError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { BankType } from '../bank/bank.type';
import { toBankType } from '../bank/bank.service';
import { MerchantPageType, MerchantType } from '../merchant/merchant.type';
import type { PartnerAccessType } from '../partner/partner.entity';
import { PartnerCredentialType, PartnerType } from '../partner/partner.type';
import type { AttemptView, DeliveryView, EndpointView } from '../webhook/webhook.service';
import {
  BankWebhookEndpointType,
  CreatedPartnerType,
  IssuePartnerCredentialInput,
  IssuedBankType,
  IssuedPartnerCredentialType,
  PartnerGrantType,
  RevokedPartnerCredentialType,
  WebhookAttemptType,
  WebhookDeliveryType,
  WebhookEndpointStateType,
  WebhookTestResultType,
} from './operator.type';

/** Operators' lists show live data; sandbox data only when asked (docs/decisions/0015-demo-data-and-sandbox.md). */
const SANDBOX_ARG = 'true: sandbox rows only (sandbox banks, partners and their merchants); false (default): live rows only.';

/**
 * The dashboards' operations (docs/graphql.md "Operators"): each wraps the service `npm run ops` uses. Every operator
 * may read; writes need the roles of lib/domain/access/operator-roles.ts. Secrets are answered once, when issued.
 */
@Resolver()
export class OperatorResolver {
  @Authorized('operator', 'internal')
  @Query(() => MerchantPageType, {
    description:
      'Merchants by code (MRC-…, exact), phone (any Indonesian form), NMID (the merchant’s primary NMID) or name (contains); all without a query. Keyset-paged by id.',
  })
  merchantSearch(
    @Arg('query', () => String, {
      nullable: true,
      description: 'Merchant code (exact), phone (any Indonesian form), primary NMID or name (contains); all merchants when omitted.',
    })
    query: string | null,
    @Arg('status', () => String, { nullable: true, description: 'Only merchants in this status.' }) status: string | null,
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size.' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'Cursor from the previous page.' }) after: string | null,
    @Arg('sandbox', { defaultValue: false, description: SANDBOX_ARG }) sandbox: boolean,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantPageType> {
    return ctx.services.merchant.search({ query, status, first, after, sandbox });
  }

  @Authorized('operator', 'internal')
  @Query(() => [PartnerType], { description: 'Every live partner (or every sandbox one), by code.' })
  partners(
    @Arg('sandbox', { defaultValue: false, description: SANDBOX_ARG }) sandbox: boolean,
    @Ctx() ctx: MerchantContext,
  ): Promise<PartnerType[]> {
    return ctx.services.partner.list(sandbox);
  }

  @Authorized('operator', 'internal')
  @Mutation(() => CreatedPartnerType)
  async createPartner(
    @Arg('code') code: string,
    @Arg('name') name: string,
    @Arg('referralCode') referralCode: string,
    @Arg('sandbox', {
      defaultValue: false,
      description: 'A sandbox partner: its credentials reach sandbox merchants only (docs/decisions/0015-demo-data-and-sandbox.md).',
    })
    sandbox: boolean,
    @Ctx() ctx: MerchantContext,
  ): Promise<CreatedPartnerType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.partners);
    const created = await ctx.services.partner.create({ code, name, referralCode, sandbox });
    audit(ctx, 'partner created', { partner_code: created.partner_code, sandbox });
    return {
      partnerId: created.partner_id,
      partnerCode: created.partner_code,
      referralCode: created.referral_code,
      referrals: created.referrals,
      sandbox: created.sandbox,
    };
  }

  @Authorized('operator', 'internal')
  @Mutation(() => IssuedPartnerCredentialType)
  async issuePartnerCredential(
    @Arg('input', () => IssuePartnerCredentialInput) input: IssuePartnerCredentialInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<IssuedPartnerCredentialType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.partners);
    if (!Number.isInteger(input.rateLimitPerMinute) || input.rateLimitPerMinute < 1 || input.rateLimitPerMinute > 100_000) {
      throw new BadInputError('rateLimitPerMinute must be between 1 and 100000');
    }
    const issued = await ctx.services.partner.issueCredential({
      ...input,
      contract: input.contract as 'A' | 'B',
      mode: input.mode as 'jwt' | 'hmac',
    });
    audit(ctx, 'partner credential issued', { partner_code: input.partnerCode, credential_key: issued.credential_key });
    return {
      credentialKey: issued.credential_key,
      credentialSecret: issued.credential_secret,
      contract: issued.contract,
      mode: issued.mode,
      sandbox: issued.sandbox,
    };
  }

  @Authorized('operator', 'internal')
  @Mutation(() => RevokedPartnerCredentialType, { description: 'Revoked credentials stop within the REST adapters’ cache time (≤ 60 s).' })
  async revokePartnerCredential(
    @Arg('credentialKey') credentialKey: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<RevokedPartnerCredentialType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.partners);
    const revoked = await ctx.services.partner.revokeCredential(credentialKey);
    audit(ctx, 'partner credential revoked', { credential_key: credentialKey });
    return { credentialKey: revoked.credential_key, status: revoked.status, revokedAt: new Date(revoked.revoked_at) };
  }

  @Authorized('operator', 'internal')
  @Mutation(() => PartnerGrantType, { description: 'A consent or assignment grant (idempotent).' })
  async grantPartnerAccess(
    @Arg('partnerCode') partnerCode: string,
    @Arg('merchantId', () => ID) merchantId: string,
    @Arg('accessType') accessType: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<PartnerGrantType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.partners);
    const grant = await ctx.services.partner.grant({ partnerCode, merchantId, type: accessType as PartnerAccessType });
    audit(ctx, 'partner access granted', { partner_code: grant.partner_code, merchant_id: merchantId, access_type: accessType });
    return {
      partnerCode: grant.partner_code,
      merchantId: grant.merchant_id,
      accessType: grant.access_type,
      grantedAt: new Date(grant.granted_at),
    };
  }

  @Authorized('operator', 'internal')
  @Mutation(() => Int, { description: 'Ends the live grant of that type; answers how many ended (0 or 1).' })
  async revokePartnerAccess(
    @Arg('partnerCode') partnerCode: string,
    @Arg('merchantId', () => ID) merchantId: string,
    @Arg('accessType') accessType: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<number> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.partners);
    const { revoked } = await ctx.services.partner.ungrant({ partnerCode, merchantId, type: accessType as PartnerAccessType });
    audit(ctx, 'partner access revoked', {
      partner_code: partnerCode.toUpperCase(),
      merchant_id: merchantId,
      access_type: accessType,
      revoked,
    });
    return revoked;
  }

  @Authorized('operator', 'internal')
  @Query(() => [BankType], { description: 'Every live bank (or every sandbox one), by code.' })
  async banks(
    @Arg('sandbox', { defaultValue: false, description: SANDBOX_ARG }) sandbox: boolean,
    @Ctx() ctx: MerchantContext,
  ): Promise<BankType[]> {
    return (await ctx.services.bank.list(sandbox)).map(toBankType);
  }

  @Authorized('operator', 'internal')
  @Mutation(() => IssuedBankType, {
    description:
      'A bank with one lookup key and one event key. A sandbox bank starts without merchants: `npm run ops -- merchant:create --bank <code>` gives it sandbox merchants with sandbox NMIDs.',
  })
  async createBank(
    @Arg('code') code: string,
    @Arg('name') name: string,
    @Arg('tier', { description: 'tier1 or external.' }) tier: string,
    @Arg('sandbox', {
      defaultValue: false,
      description: 'A sandbox bank (external only): its keys reach sandbox merchants only (docs/decisions/0015-demo-data-and-sandbox.md).',
    })
    sandbox: boolean,
    @Ctx() ctx: MerchantContext,
  ): Promise<IssuedBankType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.banks);
    if (tier !== 'tier1' && tier !== 'external') throw new BadInputError('tier must be tier1 or external');
    const bank = await ctx.services.bank.create({ code, name, tier, sandbox });
    audit(ctx, 'bank created', { bank_code: bank.bank_code, sandbox });
    return {
      bankId: bank.bank_id,
      bankCode: bank.bank_code,
      tier: bank.tier,
      sandbox: bank.sandbox,
      lookupKeyId: bank.lookup_key_id,
      lookupSecret: bank.lookup_secret,
      eventKeyId: bank.event_key_id,
      eventSecret: bank.event_secret,
    };
  }

  @Authorized('operator', 'internal')
  @Mutation(() => BankWebhookEndpointType, {
    description:
      'Sets the bank’s webhook endpoint with a new signing secret: https only in production, never an internal address (loopback, private, link-local or cloud metadata, reserved) in any spelling.',
  })
  async setBankWebhookEndpoint(
    @Arg('bankCode') bankCode: string,
    @Arg('url') url: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<BankWebhookEndpointType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.banks);
    const endpoint = await ctx.services.webhook.setEndpoint(bankCode, url);
    audit(ctx, 'bank webhook endpoint set', { bank_code: endpoint.bank_code });
    return { bankCode: endpoint.bank_code, url: endpoint.url, webhookSecret: endpoint.webhook_secret };
  }

  @Authorized('operator', 'internal')
  @Query(() => [WebhookDeliveryType], {
    description: 'Webhook deliveries, newest first; optionally of one status (pending, held, delivered, failed) and/or bank.',
  })
  async webhookDeliveries(
    @Arg('status', () => String, { nullable: true, description: 'Only deliveries in this state: pending, held, delivered or failed.' })
    status: string | null,
    @Arg('bankCode', () => String, { nullable: true, description: 'Only deliveries to this bank.' }) bankCode: string | null,
    @Arg('first', () => Int, { defaultValue: 50, description: 'Page size.' }) first: number,
    @Arg('sandbox', { defaultValue: false, description: SANDBOX_ARG }) sandbox: boolean,
    @Ctx() ctx: MerchantContext,
  ): Promise<WebhookDeliveryType[]> {
    const rows = await ctx.services.webhook.listDeliveries({
      status: status ?? undefined,
      bankCode: bankCode ?? undefined,
      limit: first,
      sandbox,
    });
    return rows.map(toDeliveryType);
  }

  @Authorized('operator', 'internal')
  @Query(() => [WebhookAttemptType], { description: 'Every attempt of a delivery, oldest first: automatic, manual and test.' })
  async webhookAttempts(
    @Arg('eventId', () => ID, { description: 'The delivery’s event id.' }) eventId: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<WebhookAttemptType[]> {
    return (await ctx.services.webhook.attempts(eventId)).map(toAttemptType);
  }

  @Authorized('operator', 'internal')
  @Mutation(() => WebhookDeliveryType, {
    description:
      'Sends a delivery again: one manual attempt, queued now, that does not use up the automatic schedule. Refused while the bank’s endpoint is disabled.',
  })
  async redeliverWebhook(@Arg('eventId', () => ID) eventId: string, @Ctx() ctx: MerchantContext): Promise<WebhookDeliveryType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.webhookRedelivery);
    return toDeliveryType(await ctx.services.webhook.redeliver(eventId, ctx.log));
  }

  @Authorized('operator', 'internal')
  @Mutation(() => WebhookTestResultType, {
    description:
      'Sends a signed webhook.test event to the bank’s endpoint now (enabled or not) and answers how it went (waits at most 10 s).',
  })
  async sendWebhookTest(@Arg('bankCode') bankCode: string, @Ctx() ctx: MerchantContext): Promise<WebhookTestResultType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.webhookRedelivery);
    const result = await ctx.services.webhook.sendTest(bankCode, ctx.log);
    return {
      eventId: result.event_id,
      delivered: result.delivered,
      statusCode: result.status_code,
      error: result.error,
      latencyMs: result.latency_ms,
    };
  }

  @Authorized('operator', 'internal')
  @Mutation(() => WebhookEndpointStateType, {
    description:
      'Disables a bank’s webhook endpoint (its deliveries are held, not attempted and not lost) or enables it (held deliveries resume at once).',
  })
  async setBankWebhookEndpointEnabled(
    @Arg('bankCode') bankCode: string,
    @Arg('enabled') enabled: boolean,
    @Arg('reason', () => String, { nullable: true, description: 'Why it is disabled (kept with the endpoint).' }) reason: string | null,
    @Ctx() ctx: MerchantContext,
  ): Promise<WebhookEndpointStateType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.banks);
    const view = await ctx.services.webhook.setEndpointEnabled(bankCode, enabled, reason);
    audit(ctx, enabled ? 'bank webhook endpoint enabled' : 'bank webhook endpoint disabled', {
      bank_code: view.bank_code,
      resumed: view.resumed,
    });
    return toEndpointType(view);
  }
}

@Resolver(() => PartnerType)
export class PartnerCredentialsResolver {
  @Authorized('operator', 'internal')
  @FieldResolver(() => [PartnerCredentialType], { description: 'The partner’s credentials, oldest first, never with a secret.' })
  credentials(@Root() partner: PartnerType, @Ctx() ctx: MerchantContext): Promise<PartnerCredentialType[]> {
    return ctx.services.partner.credentialsOf(partner.id);
  }
}

@Resolver(() => WebhookDeliveryType)
export class WebhookDeliveryMerchantResolver {
  @FieldResolver(() => MerchantType, { nullable: true })
  async merchant(@Root() delivery: WebhookDeliveryType, @Ctx() ctx: MerchantContext): Promise<MerchantType | null> {
    return delivery.merchantId ? ctx.services.merchant.findById(delivery.merchantId, ctx.principal) : null;
  }
}

function toDeliveryType(view: DeliveryView): WebhookDeliveryType {
  return {
    eventId: view.event_id,
    event: view.event,
    bankCode: view.bank_code,
    merchantId: view.merchant_id,
    status: view.status,
    attempts: view.attempts,
    nextAttemptAt: new Date(view.next_attempt_at),
    lastStatusCode: view.last_status_code,
    lastError: view.last_error,
    createdAt: new Date(view.created_at),
    deliveredAt: view.delivered_at === null ? null : new Date(view.delivered_at),
  };
}

function toAttemptType(view: AttemptView): WebhookAttemptType {
  return {
    attempt: view.attempt,
    kind: view.kind,
    scheduleNo: view.schedule_no,
    startedAt: new Date(view.started_at),
    latencyMs: view.latency_ms,
    statusCode: view.status_code,
    error: view.error,
    nextAttemptAt: view.next_attempt_at === null ? null : new Date(view.next_attempt_at),
  };
}

function toEndpointType(view: EndpointView): WebhookEndpointStateType {
  return {
    bankCode: view.bank_code,
    url: view.url,
    enabled: view.enabled,
    disabledAt: view.disabled_at === null ? null : new Date(view.disabled_at),
    disabledReason: view.disabled_reason,
    resumed: view.resumed,
  };
}

/** Operator writes are logged with who did them (never a secret). */
function audit(ctx: MerchantContext, msg: string, fields: Record<string, unknown>): void {
  const by = ctx.principal.kind === 'operator' ? { operator_id: ctx.principal.operatorId } : { by: ctx.principal.kind };
  ctx.log.info({ ...fields, ...by }, msg);
}
