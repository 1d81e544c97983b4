/**
 * Every text the platform sends a person, in each app language (core-api.md §2 `app_language`: `id` default, `en`),
 * with the one Rupiah format (`rupiah`, lib/domain/money: the statements of the transaction subgraph write it too;
 * docs/decisions/0046-notifications.md). Senders never write a
 * message text of their own: they name an entry and give its parameters; the recipient's language picks the text.
 *
 * - Push messages (login alert, payment pushes, the daily summary) are rendered here into their title and body.
 * - Messaging (WhatsApp-like) templates are registered with the provider per language; the request names the template
 *   and the language code and carries the parameters. Their texts here are the ones registered.
 * - Emails are sent with their rendered subject and text, and the template name and parameters.
 */
import { rupiah } from '@lib/domain/money/rupiah';

export { rupiah };

export const LANGUAGES = ['id', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Indonesian unless the value is another language of the catalogue (no user yet, no settings saved: `id`). */
export function languageOf(value: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : 'id';
}

const DAY_FORMATS: Record<Language, Intl.DateTimeFormat> = {
  id: new Intl.DateTimeFormat('id-ID', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  en: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
};

/** A calendar date (YYYY-MM-DD) as people of the language write it: `29 November 2026`. */
export function calendarDay(language: Language, date: string): string {
  return DAY_FORMATS[language].format(new Date(`${date}T12:00:00Z`));
}

/** A rendered message: the push's title and body, an email's subject and text, a messaging template's title and text. */
export interface MessageText {
  title: string;
  body: string;
}

export interface DailySummaryFigures {
  merchantName: string;
  /** YYYY-MM-DD, the business day in Asia/Makassar. */
  businessDay: string;
  count: number;
  grossAmount: number;
  netAmount: number;
  /** The outlet with the highest gross among the recipient's outlets, when the day's sales came from two or more. */
  bestOutlet: { name: string; grossAmount: number } | null;
}

export interface SuspensionWarning {
  merchantName: string;
  reason: 'kyc_expired' | 'inactivity';
  /** YYYY-MM-DD in Asia/Makassar: the day from which the daily run suspends the merchant. */
  suspendsOn: string;
  /** SUSPENSION_INACTIVITY_MONTHS. */
  inactivityMonths: number;
}

/** A settlement account change as the owner is told of it: every value already a string (also the messaging template's parameters). */
export interface SettlementAccountNotice extends Record<string, string> {
  merchant: string;
  /** `korporat` / `corporate`, or `outlet <name>`. */
  scope: string;
  bank: string;
  /** Masked: `******7890`. */
  account: string;
  holder: string;
  /** When it becomes effective, written for people (Asia/Makassar). */
  effective: string;
}

/** A monthly statement ready, as its email tells the owner: every value already a string (the email's parameters). */
export interface StatementNotice extends Record<string, string> {
  merchant: string;
  /** `semua outlet` / `all outlets`, or `outlet <NMID or id>`. */
  scope: string;
  /** The month written for people: `Oktober 2026`. */
  month: string;
  count: string;
  /** Rupiah: `Rp1.250.000`. */
  gross: string;
  net: string;
  /** Where the app downloads the PDF (the owner signs in first). */
  path: string;
}

/** A till close whose counted cash differs from the expected cash (docs/decisions/0057-sales-orders-and-receipt-numbers.md). */
export interface TillCashDifference {
  merchantName: string;
  kind: 'day' | 'shift';
  /** YYYY-MM-DD in Asia/Makassar: a day close's business day, a shift's last day. */
  day: string;
  cashierName: string | null;
  expectedCash: number;
  countedCash: number;
  /** countedCash − expectedCash: negative when the drawer is short. */
  difference: number;
}

type Entry<P> = Record<Language, (params: P) => MessageText>;

function entry<P>(texts: Entry<P>): Entry<P> {
  return texts;
}

/** The catalogue: one entry per message, one function per language. */
export const MESSAGES = {
  /** Messaging template `otp` (login codes; the internal OTP endpoint). */
  otp: entry<{ code: string }>({
    id: ({ code }) => ({ title: 'Kode verifikasi', body: `Kode verifikasi Anda: ${code}. Jangan berikan kode ini kepada siapa pun.` }),
    en: ({ code }) => ({ title: 'Verification code', body: `Your verification code: ${code}. Do not share this code with anyone.` }),
  }),
  /** Email template `email_otp` (email verification). */
  email_otp: entry<{ code: string }>({
    id: ({ code }) => ({
      title: 'Kode verifikasi email',
      body: `Kode verifikasi email Anda: ${code}. Abaikan email ini jika Anda tidak memintanya.`,
    }),
    en: ({ code }) => ({
      title: 'Email verification code',
      body: `Your email verification code: ${code}. Ignore this email if you did not ask for it.`,
    }),
  }),
  /** Push `login_alert` to the user's other devices. */
  login_alert: entry<{ deviceName: string | null }>({
    id: ({ deviceName }) => ({
      title: 'Login baru di akun Anda',
      body: `Akun Anda baru saja masuk di ${deviceName ?? 'perangkat baru'}. Bukan Anda? Batalkan login ini.`,
    }),
    en: ({ deviceName }) => ({
      title: 'New login to your account',
      body: `Your account was just signed in on ${deviceName ?? 'a new device'}. Not you? Cancel this login.`,
    }),
  }),
  /** Push `payment_received` (a payment of the live feed). */
  payment_received: entry<{ merchantName: string; amount: number }>({
    id: ({ merchantName, amount }) => ({ title: merchantName, body: `Pembayaran diterima ${rupiah(amount)}` }),
    en: ({ merchantName, amount }) => ({ title: merchantName, body: `Payment received ${rupiah(amount)}` }),
  }),
  /** Push `transaction` and messaging template `merchant_transaction_alert` (the transaction-status receiver). */
  merchant_transaction_alert: entry<{ merchantName: string; amount: number; transactionCode: string }>({
    id: ({ merchantName, amount, transactionCode }) => ({
      title: 'Pembayaran diterima',
      body: `${merchantName}: ${rupiah(amount)} (${transactionCode})`,
    }),
    en: ({ merchantName, amount, transactionCode }) => ({
      title: 'Payment received',
      body: `${merchantName}: ${rupiah(amount)} (${transactionCode})`,
    }),
  }),
  /** Push `daily_summary` (docs/decisions/0046-notifications.md). */
  daily_summary: entry<DailySummaryFigures>({
    id: (f) => ({
      title: `Ringkasan harian ${f.merchantName}`,
      body:
        `${calendarDay('id', f.businessDay)}: ${f.count} transaksi berhasil, kotor ${rupiah(f.grossAmount)}, ` +
        `bersih ${rupiah(f.netAmount)} setelah MDR dan biaya layanan harian.` +
        (f.bestOutlet ? ` Outlet terbaik: ${f.bestOutlet.name} (${rupiah(f.bestOutlet.grossAmount)}).` : ''),
    }),
    en: (f) => ({
      title: `Daily summary ${f.merchantName}`,
      body:
        `${calendarDay('en', f.businessDay)}: ${f.count} successful ${f.count === 1 ? 'transaction' : 'transactions'}, ` +
        `gross ${rupiah(f.grossAmount)}, net ${rupiah(f.netAmount)} after MDR and the daily service fee.` +
        (f.bestOutlet ? ` Best outlet: ${f.bestOutlet.name} (${rupiah(f.bestOutlet.grossAmount)}).` : ''),
    }),
  }),
  /** Push `suspension_warning` to a merchant's owners (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md). */
  suspension_warning: entry<SuspensionWarning>({
    id: (w) => ({
      title: `${w.merchantName} akan ditangguhkan`,
      body:
        w.reason === 'kyc_expired'
          ? `Masa berlaku verifikasi data (KYC) ${w.merchantName} berakhir. Merchant akan ditangguhkan mulai ${calendarDay('id', w.suspendsOn)}. ` +
            'Hubungi kami untuk memperbarui data Anda.'
          : `${w.merchantName} tidak memiliki transaksi berhasil selama ${w.inactivityMonths} bulan dan akan ditangguhkan mulai ` +
            `${calendarDay('id', w.suspendsOn)}. Terima satu pembayaran sebelum tanggal itu agar tetap aktif.`,
    }),
    en: (w) => ({
      title: `${w.merchantName} will be suspended`,
      body:
        w.reason === 'kyc_expired'
          ? `The KYC verification of ${w.merchantName} expires. The merchant will be suspended from ${calendarDay('en', w.suspendsOn)}. ` +
            'Contact us to update your data.'
          : `${w.merchantName} has had no successful transaction for ${w.inactivityMonths} months and will be suspended from ` +
            `${calendarDay('en', w.suspendsOn)}. Take one payment before then to stay active.`,
    }),
  }),
  /**
   * Push `settlement_account_changed`, email and messaging template of the same name: a settlement account requested
   * (docs/decisions/0238-settlement-accounts.md). Sent to every owner whatever their notification settings: a change
   * of account is how a taken-over account steals the merchant's money.
   */
  settlement_account_changed: entry<SettlementAccountNotice>({
    id: (n) => ({
      title: 'Rekening pencairan diubah',
      body:
        `Rekening pencairan ${n.scope} ${n.merchant} diubah ke ${n.account} (bank ${n.bank}, a.n. ${n.holder}). ` +
        `Berlaku mulai ${n.effective}. Bukan Anda? Batalkan perubahan ini di aplikasi sebelum waktu tersebut atau hubungi kami.`,
    }),
    en: (n) => ({
      title: 'Settlement account changed',
      body:
        `The settlement account of ${n.scope} ${n.merchant} was changed to ${n.account} (bank ${n.bank}, held by ${n.holder}). ` +
        `Effective from ${n.effective}. Not you? Cancel this change in the app before then or contact us.`,
    }),
  }),
  /**
   * Email `statement_ready`: a monthly statement generated (docs/decisions/0242-daily-reconciliation.md), sent to every
   * owner whose email is verified. A notice with the figures and where to download it, no attachment.
   */
  statement_ready: entry<StatementNotice>({
    id: (n) => ({
      title: `Laporan bulanan ${n.month} ${n.merchant}`,
      body:
        `Laporan bulanan ${n.merchant} (${n.scope}) untuk ${n.month} sudah tersedia: ${n.count} transaksi berhasil, ` +
        `penjualan kotor ${n.gross}, bersih ${n.net} setelah MDR dan biaya layanan harian. ` +
        `Unduh PDF atau CSV di aplikasi, menu Laporan (${n.path}).`,
    }),
    en: (n) => ({
      title: `Monthly statement ${n.month} ${n.merchant}`,
      body:
        `The monthly statement of ${n.merchant} (${n.scope}) for ${n.month} is ready: ${n.count} successful transactions, ` +
        `gross ${n.gross}, net ${n.net} after MDR and daily service fees. ` +
        `Download the PDF or CSV in the app, Statements (${n.path}).`,
    }),
  }),
  /** Push `settlement_account_change_cancelled`, email and messaging template of the same name. */
  settlement_account_change_cancelled: entry<SettlementAccountNotice>({
    id: (n) => ({
      title: 'Perubahan rekening pencairan dibatalkan',
      body: `Perubahan rekening pencairan ${n.scope} ${n.merchant} ke ${n.account} (bank ${n.bank}) dibatalkan. Rekening sebelumnya tetap berlaku.`,
    }),
    en: (n) => ({
      title: 'Settlement account change cancelled',
      body: `The change of the settlement account of ${n.scope} ${n.merchant} to ${n.account} (bank ${n.bank}) was cancelled. The previous account stays in effect.`,
    }),
  }),
  /**
   * Push `till_cash_difference`: a till close whose counted cash differs from the expected cash, to every owner of the
   * merchant (docs/decisions/0057-sales-orders-and-receipt-numbers.md).
   */
  till_cash_difference: entry<TillCashDifference>({
    id: (t) => ({
      title: `${t.difference < 0 ? 'Kas kurang' : 'Kas lebih'} ${rupiah(Math.abs(t.difference))}`,
      body:
        `${t.kind === 'day' ? 'Tutup hari' : `Tutup shift${t.cashierName ? ` ${t.cashierName}` : ''}`} ${calendarDay('id', t.day)} di ${t.merchantName}: ` +
        `kas dihitung ${rupiah(t.countedCash)}, seharusnya ${rupiah(t.expectedCash)}.`,
    }),
    en: (t) => ({
      title: `Cash ${t.difference < 0 ? 'short' : 'over'} by ${rupiah(Math.abs(t.difference))}`,
      body:
        `${t.kind === 'day' ? 'Day close' : `Shift close${t.cashierName ? ` of ${t.cashierName}` : ''}`} of ${calendarDay('en', t.day)} at ${t.merchantName}: ` +
        `counted ${rupiah(t.countedCash)}, expected ${rupiah(t.expectedCash)}.`,
    }),
  }),
};

export type MessageName = keyof typeof MESSAGES;
type ParamsOf<N extends MessageName> = Parameters<(typeof MESSAGES)[N]['id']>[0];

/** The text of message `name` in `language`. */
export function messageText<N extends MessageName>(name: N, language: Language, params: ParamsOf<N>): MessageText {
  const texts = MESSAGES[name] as Entry<ParamsOf<N>>;
  return texts[language](params);
}

/** The text of a template sent by name with its string parameters (an email); null for a name the catalogue does not hold. */
export function templateText(name: string, language: Language, parameters: Record<string, string>): MessageText | null {
  if (!Object.hasOwn(MESSAGES, name)) return null;
  return (MESSAGES[name as MessageName] as unknown as Entry<Record<string, string>>)[language](parameters);
}
