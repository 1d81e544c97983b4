import type { Knex } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';

export interface DeviceInfo {
  deviceHash: string | null;
  platformCode: string;
  deviceName: string | null;
}

/** Trusted devices (user × device): a successful phone verification trusts the device it came from. */
export class DeviceService {
  constructor(private readonly clock: () => Date = () => new Date()) {}

  /** Trusts the device for the user (idempotent: an already trusted device is only seen again). */
  async trust(db: Knex, userId: string, device: DeviceInfo): Promise<void> {
    if (!device.deviceHash) return;
    const now = this.clock();
    await db('merchant.trusted_devices')
      .insert({
        id: uuidv7(),
        user_id: userId,
        device_hash: device.deviceHash,
        platform_code: device.platformCode,
        device_name: device.deviceName,
        trusted_at: now,
        last_seen_at: now,
      })
      .onConflict(db.raw('(user_id, device_hash) where revoked_at is null'))
      .merge({ last_seen_at: now, platform_code: device.platformCode, device_name: device.deviceName });
  }

  /** Whether the device is trusted for the user; a trusted device is marked seen. */
  async seen(db: Knex, userId: string, deviceHash: string): Promise<boolean> {
    const updated = await db('merchant.trusted_devices')
      .where({ user_id: userId, device_hash: deviceHash })
      .whereNull('revoked_at')
      .update({ last_seen_at: this.clock() });
    return updated > 0;
  }

  /** Ends the trust of a device and drops its push token (a device that is not trusted gets no pushes). */
  async untrust(db: Knex, userId: string, deviceHash: string): Promise<void> {
    const now = this.clock();
    await db('merchant.trusted_devices')
      .where({ user_id: userId, device_hash: deviceHash })
      .whereNull('revoked_at')
      .update({ revoked_at: now });
    await db('merchant.push_tokens')
      .where({ user_id: userId, device_hash: deviceHash })
      .whereNull('invalidated_at')
      .update({ invalidated_at: now });
  }
}
