import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('Bank', { description: 'A bank acting as payment service provider.' })
export class BankType {
  @Field(() => ID)
  id!: string;

  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field(() => Int, { description: '1 for the platform’s own PSP, 2 for external banks.' })
  tier!: number;

  @Field({
    description:
      'A sandbox bank: its merchants are sandbox merchants, and it reaches no others (docs/decisions/0015-demo-data-and-sandbox.md).',
  })
  sandbox!: boolean;
}

@ObjectType('BankCredential', { description: 'An HMAC key of a bank, with its secret: for the REST adapters only.' })
export class BankCredentialType {
  @Field()
  keyId!: string;

  @Field({ description: 'lookup or event.' })
  purpose!: string;

  @Field({ description: 'The HMAC secret in clear; only service principals may read it.' })
  secret!: string;

  @Field({ description: 'active or revoked.' })
  status!: string;

  @Field(() => BankType)
  bank!: BankType;
}
