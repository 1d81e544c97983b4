/** SQL of the floors (bench/floor-server.ts), shared with bench/scale.ts, which EXPLAINs it on large data. */

/**
 * The by-NMID lookup in one statement: the live outlet with this NMID issued by the calling bank → its
 * merchant, if that merchant is the bank's and visible to it (what the outlet and merchant subgraphs check),
 * with the two fields the outlet subgraph adds to the merchant: its NMID (the default outlet's, else the
 * oldest live outlet's) and its primary terminal (most recently seen, not inactive, of a live outlet).
 */
export const BY_NMID_SQL = `
select m.id, m.name, m.legal_name, m.status, m.category_code, m.category_name, m.phone, m.email, m.npwp,
       m.address_line, m.address_city, m.address_province, m.address_postal_code, m.address_country,
       m.kyc_status, m.kyc_verified_at, b.code as bank_code, m.created_at, m.updated_at,
       d.nmid as merchant_nmid, t.model as device_model, t.status as device_status
  from outlet.outlets o
  join merchant.merchants m on m.id = o.merchant_id
  left join merchant.banks b on b.id = m.bank_id
  left join lateral (
        select d.nmid from outlet.outlets d
         where d.merchant_id = m.id and d.deleted_at is null and d.nmid is not null
         order by d.is_default desc, d.created_at asc, d.id asc limit 1) d on true
  left join lateral (
        select t.model, t.status from outlet.terminals t
          join outlet.outlets tlo on tlo.id = t.outlet_id and tlo.deleted_at is null
         where t.merchant_id = m.id and t.status <> 'inactive'
         order by t.last_seen_at desc nulls last, t.created_at desc, t.id desc limit 1) t on true
 where o.nmid = $1 and o.deleted_at is null and o.nmid_bank_code = $2
   and m.bank_id = $3 and (m.psp_visible_at is not null or $4::int = 1)`;
