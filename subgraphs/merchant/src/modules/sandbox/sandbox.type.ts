import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('SandboxClock', {
  description:
    'A sandbox bank’s sandbox clock (docs/decisions/0015-demo-data-and-sandbox.md, "The sandbox clock"): the real time plus how far the bank advanced it.',
})
export class SandboxClockType {
  @Field(() => DateTimeResolver, { description: 'The sandbox’s current time: now plus offsetSecs.' })
  now!: Date;

  @Field(() => Int, { description: 'Seconds the bank advanced its sandbox in all since it was issued or last reset.' })
  offsetSecs!: number;

  @Field(() => Int, {
    description: 'Set by advanceSandboxClock: the bank’s pending webhook deliveries whose next attempt moved closer (0 for a read).',
  })
  webhookDeliveriesMoved!: number;
}

@ObjectType('SandboxMerchantReset', { description: 'What resetSandbox did in the merchant subgraph for the calling sandbox bank.' })
export class SandboxMerchantResetType {
  @Field(() => [ID], { description: 'The bank’s sandbox merchants (all kept; restored to the issued state).' })
  merchantIds!: string[];

  @Field(() => Int, { description: 'Webhook deliveries deleted, with their attempts.' })
  webhookDeliveries!: number;

  @Field(() => Int, { description: 'Merchants whose status or suspension state was restored (active).' })
  merchantsRestored!: number;
}
