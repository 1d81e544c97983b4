import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export type BankTier = 'tier1' | 'external';

/** A bank acting as payment service provider (PSP): it looks merchants up and sends payment events. */
@Entity({ tableName: 'banks' })
export class Bank {
  [OptionalProps]?: 'createdAt' | 'sandbox';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  /** Short uppercase code (e.g. BNI), the bank_code of the PSP API. */
  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'text' })
  name!: string;

  /** tier1 is the platform's own PSP (may assign NMIDs); every other bank is external. */
  @Property({ type: 'text' })
  tier!: BankTier;

  /**
   * A sandbox bank (docs/decisions/0015-demo-data-and-sandbox.md): its merchants are sandbox merchants, and it reaches no others.
   * Fixed at issuance (its merchants' foreign key carries it).
   */
  @Property({ type: 'boolean' })
  sandbox: boolean = false;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

export type CredentialPurpose = 'lookup' | 'event';

/** An HMAC key of a bank; the secret is sealed with SecretBox because verifying needs it in clear. */
@Entity({ tableName: 'bank_credentials' })
export class BankCredential {
  [OptionalProps]?: 'status' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @ManyToOne(() => Bank, { fieldName: 'bank_id' })
  bank!: Bank;

  /** lookup keys sign /api/psp/v1 requests, event keys sign /psp/v1 requests; neither works for the other. */
  @Property({ type: 'text' })
  purpose!: CredentialPurpose;

  @Property({ type: 'text', unique: true })
  keyId!: string;

  @Property({ type: 'text' })
  secretSealed!: string;

  @Property({ type: 'text' })
  status: 'active' | 'revoked' = 'active';

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  revokedAt?: Date | null;
}
