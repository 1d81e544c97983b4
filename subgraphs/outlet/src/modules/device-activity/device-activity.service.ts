import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeviceActivityLogType } from './device-activity.type';
import { DeviceActivityRepository } from './device-activity.repository';

/** Most log entries one call returns. */
export const MAX_ACTIVITY = 100;

export class DeviceActivityService {
  private readonly repo: DeviceActivityRepository;

  constructor(em: EntityManager) {
    this.repo = new DeviceActivityRepository(em);
  }

  /** The merchant's latest entries, newest first; `last` clamped to 1..MAX_ACTIVITY. */
  async latestOfMerchant(merchantId: string, last: number): Promise<DeviceActivityLogType[]> {
    const rows = await this.repo.latestOfMerchant(merchantId, Math.min(Math.max(last, 1), MAX_ACTIVITY));
    return rows.map((r) => ({
      id: r.id,
      eventType: r.eventType,
      eventTitle: r.eventTitle,
      severity: r.severity,
      occurredAt: r.occurredAt,
    }));
  }
}
