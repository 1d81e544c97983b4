import { v7 as uuidv7 } from 'uuid';
import type { Repository } from '@lib/db/repository';
import { type DeviceInfo, DeviceRepository } from './device.repository';

/**
 * Trusted devices (user × device): a successful phone verification trusts the device it came from. Every method runs
 * in the caller's transaction: `tx` is any repository bound to it.
 */
export class DeviceService {
  constructor(private readonly clock: () => Date = () => new Date()) {}

  /** Trusts the device for the user (idempotent: an already trusted device is only seen again). */
  async trust(tx: Repository, userId: string, device: DeviceInfo): Promise<void> {
    if (!device.deviceHash) return;
    const now = this.clock();
    await tx.peer(DeviceRepository).trust(uuidv7(), userId, { ...device, deviceHash: device.deviceHash }, now);
  }

  /** Whether the device is trusted for the user; a trusted device is marked seen. */
  async seen(tx: Repository, userId: string, deviceHash: string): Promise<boolean> {
    const updated = await tx.peer(DeviceRepository).markSeen(userId, deviceHash, this.clock());
    return updated > 0;
  }

  /** Ends the trust of a device and drops its push token (a device that is not trusted gets no pushes). */
  async untrust(tx: Repository, userId: string, deviceHash: string): Promise<void> {
    await tx.peer(DeviceRepository).untrust(userId, deviceHash, this.clock());
  }
}
