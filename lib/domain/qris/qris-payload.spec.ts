import { parse as parseEmv } from 'promptparse';
import { crc16CcittFalse, crcHex, parseTlv, tlv, withCrc } from './emv-tlv';
import {
  buildDynamicQris,
  buildStaticQris,
  checkQris,
  dynamicFromStatic,
  qrisCriteriaOf,
  staticQrisProblem,
  toQrisCity,
  toQrisText,
} from './qris-payload';

/** Decodes with an independent EMVCo parser (npm promptparse, strict: CRC checked) and returns tag → value. */
function decodeIndependently(payload: string): { tag: (id: string, sub?: string) => string | undefined; ids: string[] } {
  const qr = parseEmv(payload, true, true);
  if (!qr) throw new Error(`promptparse rejected ${payload}`);
  return { tag: (id, sub) => qr.getTagValue(id, sub), ids: qr.getTags().map((t) => t.id) };
}

const MERCHANT = {
  nmid: 'ID1025380163258',
  merchantName: 'Warung Bu Sri',
  merchantCity: 'Kota Bandung',
  mcc: '5812',
  criteria: 'UMI' as const,
  postalCode: '40115',
};

describe('CRC-16/CCITT-FALSE', () => {
  it('matches the catalogue check value', () => {
    expect(crc16CcittFalse('123456789')).toBe(0x29b1);
    expect(crcHex('123456789')).toBe('29B1');
  });

  it('pads to four digits and covers the 6304 that introduces it', () => {
    const payload = withCrc(tlv('00', '01'));
    expect(payload.slice(0, -4)).toBe('0002016304');
    expect(payload.slice(-4)).toBe(crcHex('0002016304'));
    expect(payload.slice(-4)).toMatch(/^[0-9A-F]{4}$/);
  });

  it('agrees with the independent parser on a published QRIS sample once its CRC is recomputed', () => {
    const body =
      '00020101021126610014COM.GO-JEK.WWW01189360091234285490450210G6285936550303UMI51440014ID.CO.QRIS.WWW0215ID10253801632580303UMI5204504553033605802ID5910Misterdevs6007JAKARTA61051234562070703A01';
    expect(parseEmv(withCrc(body), true)).not.toBeNull();
  });
});

describe('TLV', () => {
  it('rejects lengths that run past the end, empty objects and non-digit headers', () => {
    expect(() => parseTlv('0005AB')).toThrow(/past the end/);
    expect(() => parseTlv('0000')).toThrow(/empty/);
    expect(() => parseTlv('0A01X')).toThrow(/malformed/);
    expect(parseTlv('0002010102ab')).toEqual([
      { id: '00', value: '01' },
      { id: '01', value: 'ab' },
    ]);
  });

  it('refuses values outside the common character set or longer than 99', () => {
    expect(() => tlv('59', 'Café')).toThrow(/character set/);
    expect(() => tlv('59', 'x'.repeat(100))).toThrow(/1 to 99/);
  });
});

describe('transliteration', () => {
  it.each([
    ['Warung Bu Sri', 'WARUNG BU SRI'],
    ['Café Ñandú & Co.', 'CAFE NANDU & CO.'],
    ['Kedai “Kopi” Łódź—Śląsk', 'KEDAI "KOPI" LODZ-SLASK'],
    ['Straße  der   Ölmühle', 'STRASSE DER OLMUHLE'],
    ['Ｔｏｋｏ　Ｍａｊｕ', 'TOKO MAJU'],
    ['小吃店 Bakmi 88', 'BAKMI 88'],
    ['   ', ''],
  ])('%s → %s', (input, expected) => {
    expect(toQrisText(input, 25)).toBe(expected);
  });

  it('cuts to the limit without a trailing space', () => {
    expect(toQrisText('Rumah Makan Padang Sederhana Jaya', 25)).toBe('RUMAH MAKAN PADANG SEDERH');
    expect(toQrisText('Toko Sinar Jaya Abadi', 16)).toBe('TOKO SINAR JAYA');
  });

  it('drops the regency/city kind only when the city does not fit', () => {
    expect(toQrisCity('Kota Bandung')).toBe('KOTA BANDUNG');
    expect(toQrisCity('Kabupaten Bandung Barat')).toBe('BANDUNG BARAT');
    expect(toQrisCity('Kota Administrasi Jakarta Selatan')).toBe('JAKARTA SELATAN');
  });

  it('maps business scales to merchant criteria', () => {
    expect(['micro', 'small', 'medium', 'large', null, 'other'].map(qrisCriteriaOf)).toEqual(['UMI', 'UKE', 'UME', 'UBE', 'URE', 'URE']);
  });
});

describe('static QRIS', () => {
  it('carries every tag, read back by the independent parser with its CRC checked', () => {
    const payload = buildStaticQris(MERCHANT);
    const d = decodeIndependently(payload);
    expect(d.ids).toEqual(['00', '01', '51', '52', '53', '58', '59', '60', '61', '63']);
    expect(d.tag('00')).toBe('01');
    expect(d.tag('01')).toBe('11');
    expect(d.tag('51', '00')).toBe('ID.CO.QRIS.WWW');
    expect(d.tag('51', '02')).toBe('ID1025380163258');
    expect(d.tag('51', '03')).toBe('UMI');
    expect(d.tag('52')).toBe('5812');
    expect(d.tag('53')).toBe('360');
    expect(d.tag('54')).toBeUndefined();
    expect(d.tag('58')).toBe('ID');
    expect(d.tag('59')).toBe('WARUNG BU SRI');
    expect(d.tag('60')).toBe('KOTA BANDUNG');
    expect(d.tag('61')).toBe('40115');
    expect(d.tag('63')).toBe(crcHex(payload.slice(0, -4)));
    expect(staticQrisProblem(payload, MERCHANT.nmid)).toBeNull();
  });

  it('transliterates punctuation and non-ASCII letters in name and city', () => {
    const payload = buildStaticQris({
      ...MERCHANT,
      merchantName: 'Dapur Ñyonya Lé’s Kitchen & Bar, Cabang Dago',
      merchantCity: 'Kabupaten Tasikmalaya',
      postalCode: null,
    });
    const d = decodeIndependently(payload);
    expect(d.tag('59')).toBe("DAPUR NYONYA LE'S KITCHEN");
    expect(d.tag('59')!.length).toBeLessThanOrEqual(25);
    expect(d.tag('60')).toBe('TASIKMALAYA');
    expect(d.tag('61')).toBeUndefined();
  });
});

describe('dynamic QRIS', () => {
  it('has point of initiation 12, the whole-rupiah amount and the bill number', () => {
    const payload = buildDynamicQris(MERCHANT, 25_000, 'Q0123456789ABCDEF');
    const d = decodeIndependently(payload);
    expect(d.tag('01')).toBe('12');
    expect(d.tag('54')).toBe('25000');
    expect(d.tag('62', '01')).toBe('Q0123456789ABCDEF');
    expect(d.tag('51', '02')).toBe(MERCHANT.nmid);
  });

  it('derives from the static payload with every merchant object kept and the CRC recomputed', () => {
    const stat = buildStaticQris(MERCHANT);
    const dyn = dynamicFromStatic(stat, 150_000, 'QBILL42');
    expect(dyn).toBe(buildDynamicQris(MERCHANT, 150_000, 'QBILL42'));
    const d = decodeIndependently(dyn);
    expect(d.tag('54')).toBe('150000');
    expect(d.tag('62', '01')).toBe('QBILL42');
  });

  it('refuses amounts outside 1 to 10,000,000 and fractions', () => {
    const stat = buildStaticQris(MERCHANT);
    for (const amount of [0, -5, 10_000_001, 12.5]) expect(() => dynamicFromStatic(stat, amount, 'Q1')).toThrow(/amount/);
  });
});

describe('checking a payload', () => {
  const good = buildStaticQris(MERCHANT);

  it('names what is wrong', () => {
    expect(staticQrisProblem(good.slice(0, -1) + (good.endsWith('0') ? '1' : '0'), MERCHANT.nmid)).toMatch(/CRC/);
    expect(staticQrisProblem(good, 'ID9999999999')).toMatch(/not the outlet/);
    expect(staticQrisProblem('hello', MERCHANT.nmid)).toMatch(/TLV/);
    expect(staticQrisProblem(withCrc('000201010211'), MERCHANT.nmid)).toMatch(/missing/);
    expect(staticQrisProblem(buildDynamicQris(MERCHANT, 1000, 'Q1'), MERCHANT.nmid)).toMatch(/11/);
    const noNmid = withCrc(good.slice(0, -8).replace(/51440014ID\.CO\.QRIS\.WWW0215ID10253801632580303UMI/, ''));
    expect(checkQris(noNmid)).toEqual({ ok: false, reason: expect.stringMatching(/no NMID/) });
  });

  it('accepts a valid payload of another issuer that has the NMID in its national template', () => {
    const body =
      '00020101021126610014COM.GO-JEK.WWW01189360091234285490450210G6285936550303UMI51440014ID.CO.QRIS.WWW0215ID10253801632580303UMI5204504553033605802ID5910Misterdevs6007JAKARTA61051234562070703A01';
    expect(staticQrisProblem(withCrc(body), 'ID1025380163258')).toBeNull();
  });
});
