/**
 * A Prometheus label value from an open set (operation names sent by callers), bounded: the first `max` distinct
 * values are kept, any later one is `other`, so a caller cannot grow a metric's series without limit.
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(private readonly max = 200) {}

  of(value: string | undefined | null, fallback = 'anonymous'): string {
    const label = value || fallback;
    if (this.seen.has(label)) return label;
    if (this.seen.size >= this.max) return 'other';
    this.seen.add(label);
    return label;
  }
}
