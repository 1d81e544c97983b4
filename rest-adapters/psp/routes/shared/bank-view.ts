/**
 * The bank paths read what a bank sees of a merchant from the outlet subgraph's copy: one subgraph fetch instead of
 * two (docs/decisions/0211-bank-view-read-model.md). An item the copy does not answer (an NMID unknown to the bank, a
 * merchant not visible to it, or one not copied yet) is asked again of the owners, so that the copy never makes an
 * answer go missing: only items without one cost the second operation. A batch asks the owners one bank at a time
 * (`perBank` in bank-batch.ts), because the merchant subgraph scopes what it resolves by the principal alone
 * (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md).
 */
export async function fromCopyElseOwners<T, R>(
  items: T[],
  fromCopy: (items: T[]) => Promise<(R | null)[]>,
  fromOwners: (items: T[]) => Promise<(R | null)[]>,
): Promise<(R | null)[]> {
  const answers = await fromCopy(items);
  const missing = answers.flatMap((answer, i) => (answer ? [] : [i]));
  if (missing.length === 0) return answers;
  const again = await fromOwners(missing.map((i) => items[i]));
  missing.forEach((i, k) => (answers[i] = again[k] ?? null));
  return answers;
}
