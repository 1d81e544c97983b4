/** City prefixes, longest first so that "Kota Administrasi" wins over "Kota". */
const CITY_TYPES = ['Kabupaten Administrasi', 'Kota Administrasi', 'Kabupaten', 'Kota'];

/** "Kota Administrasi Jakarta Pusat" → { type: "Kota Administrasi", name: "Jakarta Pusat" }. */
export function splitCityName(fullName: string): { type: string; name: string } {
  for (const type of CITY_TYPES) {
    if (fullName.startsWith(`${type} `)) return { type, name: fullName.slice(type.length + 1).trim() };
  }
  throw new Error(`city name without a Kota/Kabupaten prefix: ${fullName}`);
}

/**
 * Village type from the first digit of the last code segment (Permendagri numbering): 1 Kelurahan, 2 Desa,
 * 3 Desa Adat. A "Desa Adat " prefix in the name is moved to the type, like the city prefixes.
 */
export function splitVillage(code: string, fullName: string): { type: string; name: string } {
  const digit = code.split('.')[3]?.[0];
  const type = digit === '1' ? 'Kelurahan' : digit === '2' ? 'Desa' : digit === '3' ? 'Desa Adat' : undefined;
  if (!type) throw new Error(`village code with an unknown kind: ${code}`);
  const name = type === 'Desa Adat' && fullName.startsWith('Desa Adat ') ? fullName.slice('Desa Adat '.length) : fullName;
  return { type, name };
}

/** The numeric id of a Kemendagri code: its digits (31.71.01.1001 → 3171011001). */
export function idOfCode(code: string): number {
  if (!/^\d+(\.\d+)*$/.test(code)) throw new Error(`not a region code: ${code}`);
  return Number(code.replaceAll('.', ''));
}
