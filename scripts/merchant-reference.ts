import { Client } from 'pg';

/**
 * Merchants as an operator names them on the command line (`npm run ops`): the UUID, the merchant code the banner and
 * the app print (`MRC-DEMO0001`), or the NMID of one of its outlets (`ID1026112200001`). Plain reads on the admin
 * connection the command has anyway, without loading an ORM: `merchant:show` answers within a fraction of a second.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CODE = /^MRC-[A-Z0-9-]{1,40}$/i;
const NMID = /^ID[0-9]{10,15}$/i;

export const MERCHANT_REFERENCE = 'a merchant: its id (UUID), code (MRC-…) or the NMID of one of its outlets';

export type MerchantReferenceProblem = { code: 'invalid_option' | 'unknown_merchant'; message: string };

/** The merchant's id, or the problem with the reference (not a merchant reference, or no merchant of that code or NMID). */
export async function resolveMerchant(
  db: Client,
  option: string,
  reference: string,
): Promise<{ id: string } | { problem: MerchantReferenceProblem }> {
  // An id passes as it is: the command answers an unknown one itself, as it always has (exit 1).
  if (UUID.test(reference)) return { id: reference.toLowerCase() };
  let sql: string;
  if (CODE.test(reference)) sql = 'select id from merchant.merchants where merchant_code = upper($1)';
  else if (NMID.test(reference)) sql = 'select merchant_id as id from outlet.outlets where nmid = upper($1) and deleted_at is null';
  else return { problem: { code: 'invalid_option', message: `--${option} must be ${MERCHANT_REFERENCE}` } };
  const { rows } = await db.query<{ id: string }>(sql, [reference]);
  if (rows.length === 0) return { problem: { code: 'unknown_merchant', message: `--${option}: no merchant ${reference}` } };
  return { id: rows[0].id };
}

/** `merchant:show`: one merchant, its bank and its outlets with their NMIDs. */
export async function showMerchant(db: Client, merchantId: string) {
  const { rows } = await db.query(
    `select m.id as merchant_id, m.merchant_code, m.name, m.status, m.status_reason, m.kyc_status, m.sandbox,
            b.code as bank_code, m.primary_nmid, m.created_at,
            coalesce((select json_agg(json_build_object('outlet_id', o.id, 'code', o.code, 'name', o.name, 'nmid', o.nmid,
                                                        'nmid_status', o.nmid_status, 'default', o.is_default)
                                      order by o.is_default desc, o.code)
                      from outlet.outlets o where o.merchant_id = m.id and o.deleted_at is null), '[]') as outlets
       from merchant.merchants m left join merchant.banks b on b.id = m.bank_id
      where m.id = $1`,
    [merchantId],
  );
  if (rows.length === 0) throw new Error(`no merchant ${merchantId}`);
  return rows[0] as Record<string, unknown>;
}
