import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

/** Feedback a user sent from the app (core-api.md §2); kept with the merchant the user acted for, if any. */
@Entity({ tableName: 'feedback' })
export class Feedback {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'uuid', nullable: true })
  merchantId?: string | null;

  @Property({ type: 'text' })
  categoryCode!: string;

  @Property({ type: 'text' })
  categoryLabel!: string;

  @Property({ type: 'smallint', nullable: true })
  rating?: number | null;

  @Property({ type: 'text', nullable: true })
  message?: string | null;

  @Property({ type: 'text', nullable: true })
  contactPhone?: string | null;

  @Property({ type: 'boolean' })
  allowFollowUp!: boolean;

  @Property({ type: 'text' })
  source!: 'mobile_app';

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
