import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeviceActivityLogType } from './device-activity.type';
import { DeviceActivityLog } from './device-activity.entity';

/** Most log entries one call returns. */
export const MAX_ACTIVITY = 100;

export class DeviceActivityService {
  constructor(private readonly em: EntityManager) {}

  /** The merchant's latest entries, newest first; `last` clamped to 1..MAX_ACTIVITY. */
  async latestOfMerchant(merchantId: string, last: number): Promise<DeviceActivityLogType[]> {
    const rows = await this.em.find(
      DeviceActivityLog,
      { merchantId },
      { orderBy: { occurredAt: 'desc', id: 'desc' }, limit: Math.min(Math.max(last, 1), MAX_ACTIVITY) },
    );
    return rows.map((r) => ({
      id: r.id,
      eventType: r.eventType,
      eventTitle: r.eventTitle,
      severity: r.severity,
      occurredAt: r.occurredAt,
    }));
  }
}
