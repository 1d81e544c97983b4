/**
 * An Indonesian mobile or landline number in E.164 (+62…), from the forms people type: 08…, 628…, +628…,
 * with spaces, dots or dashes. Anything else (another country, too short or long) is null.
 */
export function toIndonesianE164(input: string): string | null {
  const compact = input.trim().replace(/[\s.\-()]/g, '');
  const national = compact.startsWith('+62')
    ? compact.slice(3)
    : compact.startsWith('62')
      ? compact.slice(2)
      : compact.startsWith('0')
        ? compact.slice(1)
        : null;
  if (national === null || !/^[1-9][0-9]{7,12}$/.test(national)) return null;
  return `+62${national}`;
}
