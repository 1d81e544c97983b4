import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { type UserPrincipal, userAuth } from '@rest-adapters/core/auth/user-auth';
import { actingForMerchant } from '@rest-adapters/core/routes/shared/viewer-membership';
import { ViewerPaymentTerminalDocument } from '@rest-adapters/generated/operations';
import { PaymentTerminalResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';

/**
 * core-api.md §4: the merchant's primary terminal (null unless the merchant is active), its PSP pairings that
 * are not deleted and its latest 20 device activity entries. A user without a merchant gets nulls and empty lists.
 */
export default defineRoute({
  method: 'GET',
  url: '/merchant/payment-terminal',
  summary: 'The merchant’s payment terminal, PSP pairings and device activity',
  tags: ['core: merchant'],
  schema: { response: { 200: PaymentTerminalResponse, ...errorResponses(401) } },
  operationId: 'ViewerPaymentTerminal',
  examples: {
    responses: {
      200: {
        merchant_id: DEMO.merchantId,
        merchant_name: 'Warung Kopi Demo',
        merchant_status: 'active',
        terminal: {
          id: '019a0000-0000-7000-8000-0000000a0001',
          terminal_code: 'TDEMO0001',
          brand_name: 'Sunmi',
          product_model_name: 'QRIS Soundbox S1',
          device_type_name: 'Soundbox',
          firmware_version: '1.4.2',
          device_id: 'SBX1-DEMO-0001',
          nmid: DEMO.outlets[0].nmid,
          placement_name: 'Kasir depan',
          status: 'online',
          last_seen_at: '2026-11-25T10:41:02.000+08:00',
        },
        psp_pairings: [
          {
            psp_code: 'BDEMO',
            psp_name: 'Bank Demo',
            kode_kartu: 'QRIS',
            nama_kartu: 'QRIS Bank Demo',
            psp_mid: 'MID-BDEMO-01',
            psp_tid: 'TID-BDEMO-01',
            pairing_status: 'active',
          },
          {
            psp_code: 'QRISLINK',
            psp_name: 'QRIS Link',
            kode_kartu: 'QRIS',
            nama_kartu: 'QRIS Interkoneksi',
            psp_mid: 'MID-QRISLINK-01',
            psp_tid: 'TID-QRISLINK-01',
            pairing_status: 'active',
          },
        ],
        activity_logs: [
          {
            event_type: 'device.online',
            event_title: 'Perangkat kembali online',
            severity: 'info',
            occurred_at: '2026-11-25T06:41:00.000+08:00',
          },
          {
            event_type: 'device.offline',
            event_title: 'Perangkat offline lebih dari 30 menit',
            severity: 'warning',
            occurred_at: '2026-11-25T05:41:00.000+08:00',
          },
          {
            event_type: 'firmware.updated',
            event_title: 'Firmware diperbarui ke 1.4.2',
            severity: 'info',
            occurred_at: '2026-11-22T10:41:00.000+08:00',
          },
        ],
      },
    },
  },
  authenticate: userAuth,
  run: async (_input, ctx) => {
    const scope = await actingForMerchant(ctx, ctx.principal as UserPrincipal);
    if (!scope)
      return { merchant_id: null, merchant_name: null, merchant_status: null, terminal: null, psp_pairings: [], activity_logs: [] };
    const data = await ctx.execute(
      ViewerPaymentTerminalDocument,
      { withTerminal: scope.membership.merchant.status === 'active' },
      { acting: scope.acting },
    );
    const m = data.viewerMembership!.merchant;
    const t = m.status === 'active' ? m.terminal : null;
    return {
      merchant_id: m.id,
      merchant_name: m.name,
      merchant_status: m.status,
      terminal: t
        ? {
            id: t.id,
            terminal_code: t.tid,
            brand_name: t.brandName,
            product_model_name: t.model,
            device_type_name: t.deviceTypeName,
            firmware_version: t.firmwareVersion,
            device_id: t.serialNumber ?? t.id,
            nmid: t.outlet.nmid,
            placement_name: t.placementName,
            status: t.status,
            last_seen_at: t.lastSeenAt ?? null,
          }
        : null,
      psp_pairings: m.pspPairings.map((p) => ({
        psp_code: p.pspCode,
        psp_name: p.pspName,
        kode_kartu: p.kodeKartu,
        nama_kartu: p.namaKartu,
        psp_mid: p.pspMid,
        psp_tid: p.pspTid,
        pairing_status: p.pairingStatus,
      })),
      activity_logs: m.deviceActivityLogs.map((l) => ({
        event_type: l.eventType,
        event_title: l.eventTitle,
        severity: l.severity,
        occurred_at: l.occurredAt,
      })),
    };
  },
});
