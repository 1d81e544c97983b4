const GROUPED = new Intl.NumberFormat('id-ID', { maximumFractionDigits: 0, useGrouping: true });

/** Whole rupiah as Indonesians write them: `Rp25.000`, `Rp1.250.000`, `-Rp500` (dots between thousands, no decimals). */
export function rupiah(amount: number): string {
  const text = `Rp${GROUPED.format(Math.abs(Math.round(amount)))}`;
  return amount < 0 ? `-${text}` : text;
}
