import { LRUCache } from 'lru-cache';
import QRCode, { type QRCodeToBufferOptions, type QRCodeToStringOptions } from 'qrcode';

/** The formats a sticker is drawn in: SVG, a 1024 px PNG, or UTF-8 block characters. */
export type StickerFormat = 'svg' | 'png' | 'text';

/** A PNG sticker's width and height in pixels, as the route documents (`format=png`: 1024 px). */
export const STICKER_PNG_PX = 1024;

/**
 * qrcode's options for each format: EMVCo's guidance for payment codes (error correction M, a quiet zone of four
 * modules). A PNG is 8-bit grey with every row filtered "Up" (its row repeats the one above, or changes at module
 * edges), which pngjs otherwise chooses per row out of five filters tried on 32-bit RGBA: half the bytes (4.8 against
 * 9.0 KB) in two thirds of the time (55 against 88 ms on a 2-vCPU machine), the same picture. A function, because
 * qrcode writes into the renderer options it is given.
 */
export function stickerOptions(format: 'png'): QRCodeToBufferOptions;
export function stickerOptions(format: 'svg' | 'text'): QRCodeToStringOptions;
export function stickerOptions(format: StickerFormat): QRCodeToBufferOptions | QRCodeToStringOptions {
  const base = { errorCorrectionLevel: 'M', margin: 4 } as const;
  // pngjs's own options, which qrcode hands to it and @types/qrcode does not list.
  const grey = { colorType: 0, filterType: 2 } as QRCodeToBufferOptions['rendererOpts'];
  // qrcode sizes the image floor((modules + margins) × width ÷ (modules + margins)), which floating point makes 1023 for
  // 41 and 153 modules (QR versions 6 and 34, which QRIS payloads reach): half a pixel more keeps every version at 1024.
  if (format === 'png') return { ...base, type: 'png', width: STICKER_PNG_PX + 0.5, rendererOpts: grey };
  return { ...base, type: format === 'svg' ? 'svg' : 'utf8' };
}

/**
 * The last stickers drawn, by format and payload: an outlet's payload changes rarely and its app and POS fetch the
 * same sticker again, while drawing a PNG holds the REST process's event loop for tens of milliseconds, in which the
 * process answers nobody else. 256 stickers are at most about 2 MB.
 */
const drawn = new LRUCache<string, Buffer | string>({ max: 256 });

/** The QR code of `payload` in `format`: a PNG as bytes, SVG and text as strings. */
export async function drawSticker(payload: string, format: StickerFormat): Promise<Buffer | string> {
  const key = `${format}\n${payload}`;
  let sticker = drawn.get(key);
  if (sticker === undefined) {
    sticker =
      format === 'png' ? await QRCode.toBuffer(payload, stickerOptions('png')) : await QRCode.toString(payload, stickerOptions(format));
    drawn.set(key, sticker);
  }
  return sticker;
}
