/**
 * A retry schedule of our own (docs/decisions/0031-webhooks-and-job-queue.md): the delays before attempts 2, 3, … as documented,
 * each stretched by a random jitter of up to `jitter` of itself, never shortened, so that many failures at one
 * moment (a receiver down) do not come back at one moment, and no attempt comes earlier than documented.
 */
export interface RetrySchedule {
  /** Delay before attempt n + 1, for n = 1 … steps.length, in seconds. */
  readonly stepsSecs: readonly number[];
  /** Multiplies every step (tests shrink the schedule, e.g. 0.001). */
  readonly scale: number;
  /** Up to this fraction of a step is added at random (0.1: 30 s becomes 30–33 s). */
  readonly jitter: number;
}

export const DEFAULT_JITTER = 0.1;

/** How many attempts the schedule allows in all. */
export function maxAttempts(schedule: RetrySchedule): number {
  return schedule.stepsSecs.length + 1;
}

/** The delay after failed attempt `attempt` (1-based) in ms, or null when it was the last one. */
export function retryDelayMs(schedule: RetrySchedule, attempt: number, random: () => number = Math.random): number | null {
  const step = schedule.stepsSecs[attempt - 1];
  if (step === undefined) return null;
  return Math.round(step * 1000 * schedule.scale * (1 + schedule.jitter * random()));
}
