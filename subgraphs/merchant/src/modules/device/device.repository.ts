import { Repository } from '@lib/db/repository';

/** The device a request came from, as the app reports it. */
export interface DeviceInfo {
  deviceHash: string | null;
  platformCode: string;
  deviceName: string | null;
}

/** Trusted devices (`merchant.trusted_devices`), changed inside the login's transaction. */
export class DeviceRepository extends Repository {
  /** Trusts the device for the user; an already trusted device is only seen again. */
  async trust(id: string, userId: string, device: DeviceInfo & { deviceHash: string }, now: Date): Promise<void> {
    await this.db('merchant.trusted_devices')
      .insert({
        id,
        user_id: userId,
        device_hash: device.deviceHash,
        platform_code: device.platformCode,
        device_name: device.deviceName,
        trusted_at: now,
        last_seen_at: now,
      })
      .onConflict(this.db.raw('(user_id, device_hash) where revoked_at is null'))
      .merge({ last_seen_at: now, platform_code: device.platformCode, device_name: device.deviceName });
  }

  /** Marks the trusted device seen; how many rows changed (0: not trusted). */
  markSeen(userId: string, deviceHash: string, now: Date): Promise<number> {
    return this.db('merchant.trusted_devices')
      .where({ user_id: userId, device_hash: deviceHash })
      .whereNull('revoked_at')
      .update({ last_seen_at: now });
  }

  /** Ends the trust of the device and invalidates its push token. */
  async untrust(userId: string, deviceHash: string, now: Date): Promise<void> {
    await this.db('merchant.trusted_devices')
      .where({ user_id: userId, device_hash: deviceHash })
      .whereNull('revoked_at')
      .update({ revoked_at: now });
    await this.db('merchant.push_tokens')
      .where({ user_id: userId, device_hash: deviceHash })
      .whereNull('invalidated_at')
      .update({ invalidated_at: now });
  }
}
