import { Type } from '@sinclair/typebox';
import { STICKER_PNG_PX, drawSticker } from './sticker';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosOutletQrisDocument } from '@rest-adapters/generated/operations';
import { DEMO } from '@lib/domain/demo/demo-ids';

const Params = Type.Object({ outlet_id: Type.String({ minLength: 1, maxLength: 64 }) });
const Query = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('svg'), Type.Literal('png'), Type.Literal('text')], {
      default: 'svg',
      description: `\`svg\` (image/svg+xml, default), \`png\` (image/png, ${STICKER_PNG_PX} px) or \`text\` (text/plain: the code drawn in UTF-8 block characters).`,
    }),
  ),
});
const CONTENT_TYPES = { svg: 'image/svg+xml; charset=utf-8', png: 'image/png', text: 'text/plain; charset=utf-8' } as const;
const Sticker = Type.String({
  description:
    'The QR code of the outlet’s static QRIS in the asked format (binary for png). The payload itself is in the `X-QRIS-Payload` header.',
});

/**
 * The outlet's static QRIS as a picture for the app and the POS to show or print (docs/decisions/0201-qris-payloads.md).
 * The payload is built in the outlet subgraph from the outlet's NMID and the merchant's data (or its stored correction).
 */
export default posRoutes({
  method: 'GET',
  path: '/outlets/:outlet_id/qris',
  appPath: '/merchant/outlets/:outlet_id/qris',
  summary: 'The static QRIS sticker of an outlet (svg, png or text)',
  description: [
    'The outlet’s static QRIS (EMVCo merchant-presented mode, point of initiation 11) rendered as a QR code. On the app surface only the owner and admins whose outlets include it may fetch it (403 `forbidden` otherwise).',
    '404 `not_found` when the outlet is not a live outlet of the merchant, or when it has no QRIS yet (no NMID assigned).',
  ].join('\n'),
  schema: { params: Params, querystring: Query, response: { 200: Sticker, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'PosOutletQris',
  examples: { params: { outlet_id: DEMO.outlets[0].id }, query: { format: 'svg' } },
  run: async ({ params, query }, { execute, header }) => {
    const { posOutletQris: outlet } = await execute(PosOutletQrisDocument, { id: params.outlet_id });
    const payload = outlet.qrisStaticPayload;
    if (!payload) throw new HttpError(404, 'not_found', 'the outlet has no QRIS yet (no NMID assigned)');
    header('x-qris-payload', payload);
    header('cache-control', 'private, no-store');
    const format = query.format ?? 'svg';
    header('content-type', CONTENT_TYPES[format]);
    return (await drawSticker(payload, format)) as string;
  },
});
