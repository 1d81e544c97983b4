/** The accepted forms, for the description of every REST field that takes a phone number. */
export const INDONESIAN_PHONE_FORMS =
  'An Indonesian number: `0`, `62` or `+62`, then the 8–13-digit national number without its leading 0 (e.g. `0812-3456-7890`, `+62 812 3456 7890`); spaces, dots, dashes and parentheses are ignored. Kept and compared as E.164 (`+62…`).';

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
