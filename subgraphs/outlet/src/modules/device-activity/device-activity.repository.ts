import { Repository } from '@lib/db/repository';
import { DeviceActivityLog } from './device-activity.entity';

/** Device activity logs (`outlet.device_activity_logs`). */
export class DeviceActivityRepository extends Repository {
  /** The merchant's latest `limit` entries, newest first. */
  latestOfMerchant(merchantId: string, limit: number): Promise<DeviceActivityLog[]> {
    return this.em.find(DeviceActivityLog, { merchantId }, { orderBy: { occurredAt: 'desc', id: 'desc' }, limit });
  }
}
