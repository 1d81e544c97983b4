import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export const ACTIVITY_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type ActivitySeverity = (typeof ACTIVITY_SEVERITIES)[number];

/** Something that happened to a merchant's device (came online, paired, firmware updated, …). Append-only. */
@Entity({ tableName: 'device_activity_logs' })
export class DeviceActivityLog {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  merchantId!: string;

  @Property({ type: 'uuid', nullable: true })
  terminalId?: string | null;

  @Property({ type: 'text' })
  eventType!: string;

  @Property({ type: 'text' })
  eventTitle!: string;

  @Property({ type: 'text' })
  severity!: ActivitySeverity;

  @Property({ type: 'datetime' })
  occurredAt!: Date;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
