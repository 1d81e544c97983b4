import { randomInt } from 'node:crypto';

/**
 * NMIDs of sandbox outlets (docs/decisions/0015-demo-data-and-sandbox.md): `ID99` followed by 13 digits, 15 digits in all. Issued
 * NMIDs have 13 digits after `ID`, so this 15-digit range is one no bank assigns: a sandbox outlet can never hold, and
 * so block, an NMID a live outlet gets later. Only sandbox outlets carry these NMIDs, and sandbox outlets carry no other.
 */
export const SANDBOX_NMID_PATTERN = /^ID99[0-9]{13}$/;

export function isSandboxNmid(nmid: string): boolean {
  return SANDBOX_NMID_PATTERN.test(nmid);
}

/** A fresh sandbox NMID (random in the reserved range; the outlets' unique index decides a rare collision). */
export function newSandboxNmid(): string {
  const digits = Array.from({ length: 13 }, () => randomInt(10)).join('');
  return `ID99${digits}`;
}
