/**
 * How an owner's personal contact details are masked for a bank (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md): enough to
 * match them against the bank's own KYC records, not enough to reach the person through us.
 */

/** `+6281234567890` → `+62812****7890`: the first 6 characters (country code and operator prefix) and the last 4 kept. */
export function maskPhone(phone: string): string {
  if (phone.length <= 10) return `${phone.slice(0, 3)}${'*'.repeat(Math.max(phone.length - 5, 0))}${phone.slice(-2)}`;
  return `${phone.slice(0, 6)}${'*'.repeat(phone.length - 10)}${phone.slice(-4)}`;
}

/** `budi.santoso@example.com` → `b***@example.com`; null stays null. */
export function maskEmail(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
