import { EmvFormatError, crcMatches, parseTlv, tlv, withCrc } from './emv-tlv';

/**
 * QRIS payloads (Bank Indonesia's national QR standard, an EMVCo MPM profile): static ones per outlet (point of
 * initiation 11) and dynamic ones per sale (12, with the amount and a bill number), and the check of a payload
 * someone hands us. docs/decisions/0201-qris-payloads.md explains every choice below.
 */

/** The national domain (reverse domain name) of the QRIS merchant repository, sub-tag 00 of the NMID template. */
export const QRIS_NATIONAL_DOMAIN = 'ID.CO.QRIS.WWW';
/** Merchant account information template that carries the NMID (QRIS: 51, the national merchant ID). */
export const QRIS_NMID_TEMPLATE = '51';
export const QRIS_MERCHANT_NAME_MAX = 25;
export const QRIS_MERCHANT_CITY_MAX = 15;
/** EMVCo: bill number (62.01) is ans, up to 25. */
export const QRIS_BILL_NUMBER_MAX = 25;
/** QRIS caps a transaction at Rp 10,000,000 (Bank Indonesia); the smallest is Rp 1. */
export const QRIS_MAX_AMOUNT = 10_000_000;

/** Merchant criteria, sub-tag 03: micro, small, medium, large (UMKM law scales) or regular (none known). */
export type QrisMerchantCriteria = 'UMI' | 'UKE' | 'UME' | 'UBE' | 'URE';
/** Every criteria, in the order of the scales. */
export const QRIS_CRITERIA: readonly QrisMerchantCriteria[] = ['UMI', 'UKE', 'UME', 'UBE', 'URE'];

const CRITERIA_BY_SCALE: Record<string, QrisMerchantCriteria> = { micro: 'UMI', small: 'UKE', medium: 'UME', large: 'UBE' };

/** The criteria of a business-scale code of the reference data (micro, small, medium, large); URE when unknown. */
export function qrisCriteriaOf(businessScaleCode: string | null | undefined): QrisMerchantCriteria {
  return (businessScaleCode && CRITERIA_BY_SCALE[businessScaleCode.toLowerCase()]) || 'URE';
}

/** Letters outside Latin-1 decompositions that NFKD does not split into a base letter and a mark. */
const LETTER_FOLDS: Record<string, string> = {
  ß: 'SS',
  Æ: 'AE',
  æ: 'AE',
  Ø: 'O',
  ø: 'O',
  Œ: 'OE',
  œ: 'OE',
  Đ: 'D',
  đ: 'D',
  Ł: 'L',
  ł: 'L',
  Þ: 'TH',
  þ: 'TH',
  ı: 'I',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '–': '-',
  '—': '-',
};

/**
 * Text for the name and city fields: Unicode compatibility-decomposed (NFKD: "é" → "e" + accent, full-width
 * "Ａ" → "A"), combining marks and every character outside EMVCo's common character set (printable ASCII)
 * dropped, a few letters folded by hand (ß → SS, ø → O, …), whitespace collapsed, upper-cased as QRIS stickers
 * print them, and cut to `max` characters (never ending in a space).
 */
export function toQrisText(text: string, max: number): string {
  const folded = [...text.normalize('NFKD')].map((c) => LETTER_FOLDS[c] ?? c).join('');
  const ascii = folded
    .replace(/\p{M}/gu, '')
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim()
    .toUpperCase();
  return ascii.slice(0, max).trimEnd();
}

/** Regency and city names of the reference data carry their kind; a city that does not fit loses it. */
const CITY_PREFIX = /^(KABUPATEN ADMINISTRASI|KOTA ADMINISTRASI|KABUPATEN|KOTA ADM\.|KAB\.|KOTA)\s+/;

export function toQrisCity(city: string): string {
  const full = toQrisText(city, 200);
  return (full.length > QRIS_MERCHANT_CITY_MAX ? full.replace(CITY_PREFIX, '') : full).slice(0, QRIS_MERCHANT_CITY_MAX).trimEnd();
}

export interface QrisMerchant {
  /** National merchant ID: "ID" and 10 to 15 digits. */
  nmid: string;
  merchantName: string;
  merchantCity: string;
  /** ISO 18245; "0000"-like unknown codes are the caller's to avoid. */
  mcc: string;
  criteria: QrisMerchantCriteria;
  postalCode?: string | null;
}

/** The static payload of an outlet (point of initiation 11): the payer types the amount. */
export function buildStaticQris(m: QrisMerchant): string {
  return withCrc(qrisBody(m, '11'));
}

/** What an outlet's static QRIS is built from: the outlet's NMID, correction and place, its merchant's fields. */
export interface OutletQrisSource {
  nmid: string | null;
  /** A stored correction (a bank's sticker), served as it is. */
  correction: string | null;
  city: string | null;
  postalCode: string | null;
  merchant: {
    name?: string | null;
    categoryCode?: string | null;
    businessScaleCode?: string | null;
    city?: string | null;
    postalCode?: string | null;
  } | null;
}

/**
 * An outlet's static QRIS (docs/decisions/0201-qris-payloads.md): its stored correction, else built from its NMID and
 * the merchant's name, category (MCC) and business scale (criteria), with the outlet's city and postal code (the
 * merchant's when the outlet has none). Null without an NMID, a merchant name or a four-digit MCC.
 */
export function outletStaticQris(o: OutletQrisSource): string | null {
  if (o.correction) return o.correction;
  const mcc = o.merchant?.categoryCode ?? '';
  if (!o.nmid || !o.merchant?.name || !/^[0-9]{4}$/.test(mcc)) return null;
  return buildStaticQris({
    nmid: o.nmid,
    merchantName: o.merchant.name,
    merchantCity: o.city ?? o.merchant.city ?? '',
    postalCode: o.postalCode ?? o.merchant.postalCode ?? null,
    mcc,
    criteria: qrisCriteriaOf(o.merchant.businessScaleCode),
  });
}

/** A dynamic payload (point of initiation 12): whole-rupiah amount in 54 and the bill number in 62.01. */
export function buildDynamicQris(m: QrisMerchant, amount: number, billNumber: string): string {
  return withCrc(qrisBody(m, '12', amount, billNumber));
}

function qrisBody(m: QrisMerchant, initiation: '11' | '12', amount?: number, billNumber?: string): string {
  if (!/^ID[0-9]{10,15}$/.test(m.nmid)) throw new EmvFormatError('nmid must be "ID" followed by 10 to 15 digits');
  if (!/^[0-9]{4}$/.test(m.mcc)) throw new EmvFormatError('mcc must be four digits');
  const name = toQrisText(m.merchantName, QRIS_MERCHANT_NAME_MAX) || 'MERCHANT';
  const city = toQrisCity(m.merchantCity) || 'INDONESIA';
  const postal = m.postalCode && /^[0-9]{5}$/.test(m.postalCode.trim()) ? m.postalCode.trim() : null;
  const account = tlv('00', QRIS_NATIONAL_DOMAIN) + tlv('02', m.nmid) + tlv('03', m.criteria);
  const parts = [tlv('00', '01'), tlv('01', initiation), tlv(QRIS_NMID_TEMPLATE, account), tlv('52', m.mcc), tlv('53', '360')];
  if (amount !== undefined) {
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > QRIS_MAX_AMOUNT)
      throw new EmvFormatError(`amount must be a whole number of rupiah from 1 to ${QRIS_MAX_AMOUNT}`);
    parts.push(tlv('54', String(amount)));
  }
  parts.push(tlv('58', 'ID'), tlv('59', name), tlv('60', city));
  if (postal) parts.push(tlv('61', postal));
  if (billNumber !== undefined) {
    if (!/^[0-9A-Z]{1,25}$/.test(billNumber)) throw new EmvFormatError('bill number must be 1 to 25 upper-case letters or digits');
    parts.push(tlv('62', tlv('01', billNumber)));
  }
  return parts.join('');
}

/** A parsed QRIS payload: top-level objects by ID, templates' sub-objects by ID. */
export interface ParsedQris {
  tags: Map<string, string>;
  /** Sub-objects of 26–51 and 62 (templates), when they parse. */
  templates: Map<string, Map<string, string>>;
  initiation: 'static' | 'dynamic';
  /** The NMID of the national template (sub-tag 00 ID.CO.QRIS.WWW, sub-tag 02), when present. */
  nmid: string | null;
}

const MANDATORY = ['00', '01', '52', '53', '58', '59', '60', '63'];

/**
 * Checks a QRIS payload: well-formed TLV (every length right, nothing left over, no ID twice), payload format
 * indicator 01 first and the CRC last and right, the mandatory objects present, currency 360 and country ID, and
 * an NMID in a merchant account template under the national domain. Returns the parsed payload, or the reason it
 * is not one (a sentence for an error body).
 */
export function checkQris(payload: string): { ok: true; qris: ParsedQris } | { ok: false; reason: string } {
  if (!payload || payload.length > 512) return { ok: false, reason: 'a QRIS payload is 1 to 512 characters' };
  let objects;
  try {
    objects = parseTlv(payload);
  } catch (error) {
    return { ok: false, reason: `not EMVCo TLV: ${(error as Error).message}` };
  }
  const tags = new Map<string, string>();
  for (const o of objects) {
    if (tags.has(o.id)) return { ok: false, reason: `data object ${o.id} appears twice` };
    tags.set(o.id, o.value);
  }
  if (objects[0]?.id !== '00' || objects[0].value !== '01') return { ok: false, reason: 'the payload must start with 000201' };
  if (objects.at(-1)?.id !== '63' || objects.at(-1)?.value.length !== 4)
    return { ok: false, reason: 'the payload must end with the CRC (6304…)' };
  if (!crcMatches(payload)) return { ok: false, reason: 'the CRC (tag 63) does not match the payload' };
  const missing = MANDATORY.filter((id) => !tags.has(id));
  if (missing.length) return { ok: false, reason: `missing data objects ${missing.join(', ')}` };
  const initiation = tags.get('01');
  if (initiation !== '11' && initiation !== '12') return { ok: false, reason: 'point of initiation (tag 01) must be 11 or 12' };
  if (tags.get('53') !== '360') return { ok: false, reason: 'currency (tag 53) must be 360 (rupiah)' };
  if (tags.get('58') !== 'ID') return { ok: false, reason: 'country (tag 58) must be ID' };
  if (!/^[0-9]{4}$/.test(tags.get('52') ?? '')) return { ok: false, reason: 'merchant category code (tag 52) must be four digits' };
  const templates = new Map<string, Map<string, string>>();
  for (const [id, value] of tags) {
    const n = Number(id);
    if ((n >= 26 && n <= 51) || id === '62') {
      try {
        templates.set(id, new Map(parseTlv(value).map((o) => [o.id, o.value])));
      } catch (error) {
        return { ok: false, reason: `template ${id} is not EMVCo TLV: ${(error as Error).message}` };
      }
    }
  }
  let nmid: string | null = null;
  for (const [id, sub] of templates) {
    if (id !== '62' && sub.get('00')?.toUpperCase() === QRIS_NATIONAL_DOMAIN) nmid = sub.get('02') ?? null;
  }
  if (!nmid) return { ok: false, reason: `no NMID: no merchant account template with ${QRIS_NATIONAL_DOMAIN} and sub-tag 02` };
  return { ok: true, qris: { tags, templates, initiation: initiation === '11' ? 'static' : 'dynamic', nmid } };
}

/** Why `payload` is not a static QRIS of `nmid`, or null when it is one. */
export function staticQrisProblem(payload: string, nmid: string): string | null {
  const checked = checkQris(payload);
  if (!checked.ok) return checked.reason;
  if (checked.qris.initiation !== 'static') return 'a static QRIS has point of initiation 11';
  if (checked.qris.nmid !== nmid) return `the NMID of the payload (${checked.qris.nmid}) is not the outlet's (${nmid})`;
  return null;
}

/**
 * The dynamic payload of a sale from an outlet's static payload: every merchant object kept as it is, point of
 * initiation 12, the amount (54) and the bill number (62.01) added or replaced, the CRC computed again.
 */
export function dynamicFromStatic(staticPayload: string, amount: number, billNumber: string): string {
  const checked = checkQris(staticPayload);
  if (!checked.ok) throw new EmvFormatError(checked.reason);
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > QRIS_MAX_AMOUNT)
    throw new EmvFormatError(`amount must be a whole number of rupiah from 1 to ${QRIS_MAX_AMOUNT}`);
  if (!/^[0-9A-Z]{1,25}$/.test(billNumber)) throw new EmvFormatError('bill number must be 1 to 25 upper-case letters or digits');
  const tags = new Map(checked.qris.tags);
  tags.delete('63');
  tags.set('01', '12');
  tags.set('54', String(amount));
  const additional = (checked.qris.templates.get('62') ?? new Map<string, string>()) as Map<string, string>;
  additional.set('01', billNumber);
  tags.set(
    '62',
    [...additional]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, v]) => tlv(id, v))
      .join(''),
  );
  const body = [...tags]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, v]) => tlv(id, v))
    .join('');
  return withCrc(body);
}
