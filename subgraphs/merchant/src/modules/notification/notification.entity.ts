import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export const NOTIFICATION_CHANNELS = ['messaging', 'push', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * Delivery status of a sent message: `logged` (log provider, nothing sent), `accepted` (the provider took it),
 * then what the provider reports (`sent`, `delivered`, `read`, `failed`), or `invalid_token` (push token
 * unregistered). `failed` is also what a send that did not reach the provider records.
 */
export const DELIVERY_STATUSES = ['logged', 'accepted', 'sent', 'delivered', 'read', 'failed', 'invalid_token'] as const;
export type MessageStatus = (typeof DELIVERY_STATUSES)[number];

/** A user's push token on one device (device id kept as its SHA-256, see device-hash.ts). */
@Entity({ tableName: 'push_tokens' })
export class PushToken {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'text' })
  deviceHash!: string;

  @Property({ type: 'text', nullable: true })
  deviceName?: string | null;

  @Property({ type: 'text' })
  token!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  invalidatedAt?: Date | null;
}

/** One message handed to a provider (or the log provider), with the provider's id and its delivery status. */
@Entity({ tableName: 'notification_messages' })
export class NotificationMessage {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'text' })
  channel!: NotificationChannel;

  @Property({ type: 'text' })
  provider!: string;

  @Property({ type: 'text' })
  recipient!: string;

  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Property({ type: 'uuid', nullable: true })
  userId?: string | null;

  @Property({ type: 'text' })
  template!: string;

  @Property({ type: 'json' })
  parameters!: Record<string, unknown>;

  /** The recipient's language the message was sent in (messaging, email); null for pushes (their text is rendered by the caller). */
  @Property({ type: 'text', nullable: true })
  language?: string | null;

  @Property({ type: 'text', nullable: true })
  providerMessageId?: string | null;

  @Property({ type: 'text' })
  status!: MessageStatus;

  @Property({ type: 'text', nullable: true })
  error?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  statusAt: Date = new Date();
}
