import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('SettlementAccount', {
  description:
    'An account a merchant is paid into (docs/decisions/0238-settlement-accounts.md): the corporate account (pooled) or an outlet’s own.',
})
export class SettlementAccountType {
  @Field(() => ID, { description: 'The account row’s id (a new id for every account set).' })
  id!: string;

  @Field({ description: '`corporate` (the merchant’s pooled account) or `outlet` (the outlet’s own).' })
  source!: string;

  @Field(() => ID, { nullable: true, description: 'The outlet whose own account it is; null for the corporate account.' })
  outletId!: string | null;

  @Field({ description: 'The bank’s 3-digit code (Bank Indonesia’s sandi bank, e.g. 014).' })
  bankCode!: string;

  @Field({
    description:
      'The account number: in full for the owner, operators and the merchant’s bank; masked (`******7890`) for admins, staff and viewers.',
  })
  accountNumber!: string;

  @Field({ description: 'The account number with every digit but the last four hidden (`******7890`).' })
  accountNumberMasked!: string;

  @Field({ description: 'The account holder’s name.' })
  holderName!: string;

  @Field(() => DateTimeResolver, {
    description: 'When it is (or was, or will be) effective: later than requestedAt while held for the cooling-off.',
  })
  effectiveAt!: Date;

  @Field(() => DateTimeResolver)
  requestedAt!: Date;

  @Field({ description: 'Who set it: `user:<id>` or `operator:<id>`.' })
  requestedBy!: string;
}

@ObjectType('SettlementAccountSetting', {
  description: 'The account of one scope (corporate, or one outlet’s own) now, and its change held for the cooling-off.',
})
export class SettlementAccountSettingType {
  @Field(() => ID)
  merchantId!: string;

  @Field(() => ID, { nullable: true, description: 'Null: the corporate account.' })
  outletId!: string | null;

  @Field(() => SettlementAccountType, { nullable: true, description: 'In effect now (null: none set).' })
  current!: SettlementAccountType | null;

  @Field(() => SettlementAccountType, {
    nullable: true,
    description: 'A change held until its effectiveAt; the owner or an operator may cancel it until then.',
  })
  pending!: SettlementAccountType | null;
}

@ObjectType('SettlementAccountAuditEntry', { description: 'One request, cancellation or supersession of a settlement account.' })
export class SettlementAccountAuditEntryType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { nullable: true })
  outletId!: string | null;

  @Field(() => ID, { description: 'The account requested, cancelled or superseded.' })
  accountId!: string;

  @Field({ description: '`requested`, `cancelled` or `superseded` (a newer request replaced it while pending).' })
  action!: string;

  @Field({ description: '`user:<id>` or `operator:<id>`.' })
  actor!: string;

  @Field(() => String, { nullable: true, description: 'The account paid into at the time, masked (bank code, number, holder).' })
  oldAccount!: string | null;

  @Field(() => String, { nullable: true, description: 'The account of the change, masked.' })
  newAccount!: string | null;

  @Field(() => DateTimeResolver, { nullable: true })
  effectiveAt!: Date | null;

  @Field(() => DateTimeResolver)
  at!: Date;
}

@InputType('SetSettlementAccountInput')
export class SetSettlementAccountInput {
  @Field(() => ID, { nullable: true, description: 'The merchant (an app user: their own when omitted; operators must name it).' })
  merchantId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The outlet whose own account this is; omitted: the corporate account.' })
  outletId?: string | null;

  @Field({ description: 'The bank’s 3-digit code (e.g. 014).' })
  bankCode!: string;

  @Field({ description: '6 to 20 digits (spaces and hyphens are dropped).' })
  accountNumber!: string;

  @Field({ description: 'The account holder’s name, 2 to 100 characters.' })
  holderName!: string;
}

@InputType('SettlementAccountScopeInput')
export class SettlementAccountScopeInput {
  @Field(() => ID, { nullable: true, description: 'The merchant (an app user: their own when omitted).' })
  merchantId?: string | null;

  @Field(() => ID, { nullable: true, description: 'The outlet; omitted: the corporate account.' })
  outletId?: string | null;
}
