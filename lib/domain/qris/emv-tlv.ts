/**
 * EMVCo QR Code Specification for Payment Systems, Merchant-Presented Mode (MPM): the TLV layer and the CRC.
 *
 * A payload is a string of data objects, each `ID` (two digits) `LEN` (two digits, the value's length in
 * characters, 01–99) `VALUE`. Templates (merchant account information 26–51, additional data 62, …) hold data
 * objects of the same shape. The last object is the CRC (ID 63, length 04): CRC-16/CCITT-FALSE (polynomial
 * 0x1021, initial value 0xFFFF, no reflection, no final XOR) over the whole payload up to and including "6304",
 * written as four upper-case hexadecimal digits. Pure functions; docs/decisions/0201-qris-payloads.md.
 */

/** One data object; `value` is the raw text (a template's value is itself TLV). */
export interface EmvDataObject {
  id: string;
  value: string;
}

/** Thrown by `parseTlv` and by the encoder for anything that is not well-formed EMVCo TLV. */
export class EmvFormatError extends Error {}

/** CRC-16/CCITT-FALSE of `text` (ASCII; each character taken as one byte). CRC of "123456789" is 0x29B1. */
export function crc16CcittFalse(text: string): number {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= (text.charCodeAt(i) & 0xff) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The four upper-case hex digits of the CRC of `text`. */
export function crcHex(text: string): string {
  return crc16CcittFalse(text).toString(16).toUpperCase().padStart(4, '0');
}

/** `ID LEN VALUE` of one data object; the value must be 1–99 characters of the common character set. */
export function tlv(id: string, value: string): string {
  if (!/^[0-9]{2}$/.test(id)) throw new EmvFormatError(`data object ID must be two digits, got "${id}"`);
  if (value.length < 1 || value.length > 99) throw new EmvFormatError(`data object ${id} must be 1 to 99 characters long`);
  if (!isCommonCharacterSet(value)) throw new EmvFormatError(`data object ${id} has characters outside the EMVCo common character set`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Data objects in order, then the CRC object computed over them. */
export function withCrc(body: string): string {
  const head = `${body}6304`;
  return `${head}${crcHex(head)}`;
}

/** The data objects of a payload or template, in order; EmvFormatError when a length runs past the end or is not two digits. */
export function parseTlv(text: string): EmvDataObject[] {
  const objects: EmvDataObject[] = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const len = text.slice(at + 2, at + 4);
    if (!/^[0-9]{2}$/.test(id) || !/^[0-9]{2}$/.test(len)) throw new EmvFormatError(`malformed data object at position ${at}`);
    const length = Number(len);
    if (length === 0) throw new EmvFormatError(`data object ${id} at position ${at} is empty`);
    if (at + 4 + length > text.length) throw new EmvFormatError(`data object ${id} at position ${at} runs past the end`);
    objects.push({ id, value: text.slice(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  return objects;
}

/** EMVCo's common character set: printable ASCII, 0x20–0x7E. */
export function isCommonCharacterSet(text: string): boolean {
  return /^[\x20-\x7E]*$/.test(text);
}

/** Whether a payload's last object is a CRC (6304…) that matches the rest. */
export function crcMatches(payload: string): boolean {
  if (payload.length < 8 || payload.slice(-8, -4) !== '6304') return false;
  return payload.slice(-4).toUpperCase() === crcHex(payload.slice(0, -4)) && /^[0-9A-F]{4}$/.test(payload.slice(-4));
}
