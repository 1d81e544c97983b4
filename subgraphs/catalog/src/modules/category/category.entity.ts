import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

/** A point-of-sale product category of a merchant; soft-deleted so offline devices learn of the deletion. */
@Entity({ tableName: 'categories' })
export class Category {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  merchantId!: string;

  @Property({ type: 'uuid', nullable: true })
  parentId?: string | null;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'integer' })
  sortOrder: number = 0;

  @Property({ type: 'text', nullable: true })
  iconName?: string | null;

  @Property({ type: 'boolean' })
  isActive: boolean = true;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  deletedAt?: Date | null;
}
