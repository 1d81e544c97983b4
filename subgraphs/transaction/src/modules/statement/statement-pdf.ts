import PDFDocument from 'pdfkit';
import { rupiah } from '@lib/domain/money/rupiah';
import { STATEMENT_CALENDAR } from './statement-month';
import type { StatementModel } from './statement-model';

const DAY = new Intl.DateTimeFormat('id-ID', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('id-ID', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const STATUS: Record<string, string> = {
  success: 'berhasil',
  pending: 'tertunda',
  failed: 'gagal',
  cancelled: 'dibatalkan',
  refunded: 'dikembalikan',
  reversed: 'dibatalkan bank',
};

/** `2026-11-01` → `1 November 2026`. */
export const tanggal = (date: string): string => DAY.format(new Date(`${date}T12:00:00Z`));
/** `2026-11` → `November 2026`. */
export const bulan = (month: string): string => MONTH.format(new Date(`${month}-15T12:00:00Z`));
/** An instant as `DD/MM HH:MM` in Asia/Makassar (WITA). */
const waktu = (instant: Date): string => {
  const iso = STATEMENT_CALENDAR.iso(instant);
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)} ${iso.slice(11, 16)}`;
};

const PAGE = { size: 'A4', margin: 40 } as const;
const WIDTH = 595.28 - 2 * PAGE.margin;
const INK = '#1f2937';
const MUTED = '#6b7280';
const ACCENT = '#0f766e';
const RULE = '#d1d5db';

/**
 * The statement as a PDF (pdfkit; docs/decisions/0242-daily-reconciliation.md): A4, Indonesian labels, amounts in
 * Rupiah (`rupiah`), times in WITA; the summary, a bar chart of the daily takings drawn with the library's vector
 * operators, settlements, the reconciliation section, then every transaction of the month.
 */
export function renderStatementPdf(model: StatementModel): Promise<Buffer> {
  const doc = new PDFDocument({
    ...PAGE,
    bufferPages: true,
    info: {
      Title: `Laporan Bulanan ${bulan(model.month)}`,
      Author: 'QRIS Merchant Platform',
      Subject: `Laporan bulanan ${model.merchant.name ?? model.merchant.id} ${model.month}`,
      CreationDate: model.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  header(doc, model);
  summary(doc, model);
  chart(doc, model);
  settlements(doc, model);
  reconciliation(doc, model);
  transactions(doc, model);
  footers(doc, model);
  doc.end();
  return done;
}

type Doc = PDFKit.PDFDocument;

function header(doc: Doc, model: StatementModel): void {
  const left = PAGE.margin;
  doc.rect(0, 0, 595.28, 8).fill(ACCENT);
  doc.fillColor(ACCENT).font('Helvetica-Bold').fontSize(18).text('Laporan Bulanan Merchant', left, 32);
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(12)
    .text(model.merchant.name ?? model.merchant.id, left, 58);
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  doc.text(`ID merchant: ${model.merchant.id}`, left, 76);
  doc.text(
    model.outlet
      ? `Outlet: ${model.outlet.id}${model.outlet.nmids.length ? ` (NMID ${model.outlet.nmids.join(', ')})` : ''}`
      : 'Semua outlet',
    left,
    88,
  );
  doc.text(`Periode: ${tanggal(model.firstDay)} s.d. ${tanggal(model.lastDay)} (WITA)`, left, 100);
  doc.text(`Dibuat: ${tanggal(STATEMENT_CALENDAR.dateOf(model.generatedAt))} ${waktu(model.generatedAt).slice(6)} WITA`, left, 112);
  doc
    .moveTo(left, 130)
    .lineTo(left + WIDTH, 130)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.y = 140;
}

/** A label and its amount on one line, the amount right-aligned. */
function line(doc: Doc, label: string, value: string, options: { bold?: boolean; indent?: number } = {}): void {
  const y = doc.y;
  const left = PAGE.margin + (options.indent ?? 0);
  doc
    .font(options.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(10)
    .fillColor(INK);
  doc.text(label, left, y, { width: 300, lineBreak: false });
  doc.text(value, PAGE.margin + WIDTH - 200, y, { width: 200, align: 'right', lineBreak: false });
  doc.y = y + 15;
}

function section(doc: Doc, title: string): void {
  if (doc.y > 740) doc.addPage();
  doc.y += 6;
  doc.font('Helvetica-Bold').fontSize(11).fillColor(ACCENT).text(title, PAGE.margin, doc.y);
  doc.y += 4;
}

function summary(doc: Doc, model: StatementModel): void {
  const s = model.summary;
  section(doc, 'Ringkasan');
  line(doc, 'Saldo awal belum dicairkan', rupiah(model.opening.net_amount));
  line(doc, 'Jumlah transaksi berhasil', String(s.count));
  line(doc, 'Penjualan kotor', rupiah(s.grossAmount));
  line(doc, 'Biaya MDR', rupiah(-s.mdrFeeAmount), { indent: 12 });
  line(doc, 'Biaya layanan harian', rupiah(-s.serviceFeeAmount), { indent: 12 });
  line(doc, 'Penjualan bersih', rupiah(s.netAmount), { bold: true });
  line(doc, `Pengembalian dana (${model.refunds.count} transaksi)`, rupiah(-model.refunds.amount));
  line(doc, `Dana dicairkan (${model.settlements.count} pencairan)`, rupiah(model.settlements.net_amount));
}

function chart(doc: Doc, model: StatementModel): void {
  section(doc, 'Penjualan harian');
  const top = doc.y + 4;
  const height = 90;
  const left = PAGE.margin + 44;
  const width = WIDTH - 44;
  const max = Math.max(1, ...model.daily.map((d) => d.gross_amount));
  const slot = width / model.daily.length;
  doc.font('Helvetica').fontSize(7).fillColor(MUTED);
  doc.text(rupiah(max), PAGE.margin, top - 3, { width: 42, align: 'right', lineBreak: false });
  doc.text('Rp0', PAGE.margin, top + height - 6, { width: 42, align: 'right', lineBreak: false });
  doc
    .moveTo(left, top)
    .lineTo(left + width, top)
    .lineWidth(0.3)
    .strokeColor(RULE)
    .stroke();
  doc
    .moveTo(left, top + height)
    .lineTo(left + width, top + height)
    .lineWidth(0.6)
    .strokeColor(MUTED)
    .stroke();
  model.daily.forEach((d, i) => {
    const h = (d.gross_amount / max) * height;
    if (h > 0) doc.rect(left + i * slot + slot * 0.15, top + height - h, slot * 0.7, h).fill(ACCENT);
    if (i % 5 === 0 || i === model.daily.length - 1) {
      doc
        .fillColor(MUTED)
        .fontSize(6.5)
        .text(String(Number(d.day.slice(8))), left + i * slot, top + height + 3, {
          width: slot,
          align: 'center',
          lineBreak: false,
        });
    }
  });
  doc.y = top + height + 16;
}

function settlements(doc: Doc, model: StatementModel): void {
  section(doc, 'Pencairan dana');
  if (model.settlements.rows.length === 0) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('Tidak ada pencairan pada periode ini.', PAGE.margin, doc.y);
    doc.y += 4;
    return;
  }
  table(
    doc,
    ['Tanggal', 'ID pencairan', 'NMID', 'Kotor', 'MDR', 'Bersih'],
    [80, 130, 110, 65, 45, 85],
    model.settlements.rows.map((r) => [
      tanggal(r.settlement_date),
      r.settlement_id,
      r.nmid,
      rupiah(r.gross_amount),
      rupiah(r.mdr_total),
      rupiah(r.net_amount),
    ]),
  );
}

function reconciliation(doc: Doc, model: StatementModel): void {
  section(doc, 'Hasil rekonsiliasi');
  const r = model.reconciliation;
  if (!r) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('Hasil rekonsiliasi belum tersedia untuk periode ini.', PAGE.margin, doc.y);
    doc.y += 4;
    return;
  }
  line(doc, 'Selisih terbuka', String(r.open));
  line(doc, 'Selisih terselesaikan', String(r.resolved));
  for (const [kind, count] of Object.entries(r.byClass)) line(doc, kind, String(count), { indent: 12 });
}

function transactions(doc: Doc, model: StatementModel): void {
  section(doc, `Daftar transaksi (${model.transactions.length})`);
  if (model.transactions.length === 0) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('Tidak ada transaksi pada periode ini.', PAGE.margin, doc.y);
    return;
  }
  table(
    doc,
    ['Waktu (WITA)', 'Kode transaksi', 'Status', 'Kotor', 'MDR', 'Layanan', 'Refund', 'Bersih'],
    [62, 120, 62, 60, 42, 42, 52, 75],
    model.transactions.map((t) => [
      waktu(t.transaction_at),
      t.transaction_code,
      STATUS[t.status] ?? t.status,
      rupiah(t.gross_amount),
      rupiah(t.mdr_fee_amount),
      rupiah(t.service_fee_amount),
      rupiah(t.refunded_amount),
      rupiah(t.net_amount),
    ]),
  );
}

/** Rows under a header; text columns left, amount columns (from the fourth) right; a new page repeats the header. */
function table(doc: Doc, head: string[], widths: number[], rows: string[][]): void {
  const draw = (cells: string[], bold: boolean) => {
    const y = doc.y;
    let x = PAGE.margin;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(7.5)
      .fillColor(bold ? MUTED : INK);
    cells.forEach((cell, i) => {
      doc.text(cell, x + 2, y, { width: widths[i] - 4, align: i >= 3 ? 'right' : 'left', lineBreak: false, ellipsis: true });
      x += widths[i];
    });
    doc.y = y + 12;
  };
  draw(head, true);
  for (const row of rows) {
    if (doc.y > 780) {
      doc.addPage();
      doc.y = PAGE.margin;
      draw(head, true);
    }
    draw(row, false);
  }
  doc.y += 4;
}

function footers(doc: Doc, model: StatementModel): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    // Below the bottom margin: without lifting it pdfkit would start a new page for the footer.
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(7).fillColor(MUTED);
    doc.text(
      `${model.merchant.name ?? model.merchant.id} · ${bulan(model.month)} · Halaman ${i + 1} dari ${range.count}`,
      PAGE.margin,
      812,
      { width: WIDTH, align: 'center', lineBreak: false },
    );
  }
}
