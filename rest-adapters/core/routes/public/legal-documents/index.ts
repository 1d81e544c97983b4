import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PublicLegalDocumentDocument } from '@rest-adapters/generated/operations';
import { toLegalDocumentResponse } from './mapper';
import { LegalDocumentQuery, LegalDocumentResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/public/legal-documents',
  summary: 'Get a published legal document',
  tags: ['core: public'],
  schema: { querystring: LegalDocumentQuery, response: { 200: LegalDocumentResponse, ...errorResponses(400, 404) } },
  operationId: 'PublicLegalDocument',
  examples: {
    query: { code: 'terms_of_service' },
    responses: {
      200: {
        code: 'terms_of_service',
        title: 'Syarat dan Ketentuan Layanan',
        version: '1.0.0',
        status: 'published',
        page_title: 'Syarat dan Ketentuan',
        hero_title: 'Syarat dan Ketentuan Layanan',
        hero_subtitle: 'Aturan penggunaan Layanan untuk menerima pembayaran QRIS dan mengelola usaha Anda.',
        info_title: 'Harap dibaca dengan saksama',
        info_description:
          'Dengan mendaftar atau terus menggunakan Layanan, Anda menyatakan telah membaca, memahami, dan menyetujui Syarat dan Ketentuan ini.',
        support_title: 'Butuh bantuan?',
        support_body: 'Hubungi tim dukungan kami melalui menu Bantuan di aplikasi atau kirim email ke dukungan@example.id.',
        sections: [
          {
            title: '4. Biaya',
            body: 'Atas transaksi QRIS dikenakan Merchant Discount Rate (MDR) sebesar yang ditetapkan dalam ketentuan Bank Indonesia untuk kategori usaha Anda.',
          },
        ],
        published_at: '2026-10-31T17:00:00.000Z',
        updated_at: '2026-10-31T17:00:00.000Z',
      },
    },
  },
  cache: 'public',
  run: async ({ query }, { execute }) => {
    return toLegalDocumentResponse(await execute(PublicLegalDocumentDocument, { code: query.code }));
  },
});
