import { Field, ObjectType } from 'type-graphql';

@ObjectType('OtpRuntimeStatus', { description: 'Where one-time passwords are kept and whether that store answers.' })
export class OtpRuntimeStatusType {
  @Field({ description: 'The OTP store: the merchant schema in PostgreSQL.' })
  store!: string;

  @Field({ description: 'ok or unavailable.' })
  status!: string;
}
