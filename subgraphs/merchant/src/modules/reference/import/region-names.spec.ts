import { idOfCode, splitCityName, splitVillage } from './region-names';

describe('region names', () => {
  it('moves the Kota/Kabupaten prefix to the type', () => {
    expect(splitCityName('Kabupaten Aceh Selatan')).toEqual({ type: 'Kabupaten', name: 'Aceh Selatan' });
    expect(splitCityName('Kota Bandung')).toEqual({ type: 'Kota', name: 'Bandung' });
    expect(splitCityName('Kota Administrasi Jakarta Pusat')).toEqual({ type: 'Kota Administrasi', name: 'Jakarta Pusat' });
    expect(splitCityName('Kabupaten Administrasi Kepulauan Seribu')).toEqual({
      type: 'Kabupaten Administrasi',
      name: 'Kepulauan Seribu',
    });
    expect(() => splitCityName('Bandung')).toThrow(/prefix/);
  });

  it('derives the village type from its code', () => {
    expect(splitVillage('31.71.01.1001', 'Gambir')).toEqual({ type: 'Kelurahan', name: 'Gambir' });
    expect(splitVillage('11.01.01.2001', 'Keude Bakongan')).toEqual({ type: 'Desa', name: 'Keude Bakongan' });
    expect(splitVillage('91.03.01.3007', 'Desa Adat Yoboi')).toEqual({ type: 'Desa Adat', name: 'Yoboi' });
    expect(() => splitVillage('91.03.01.9007', 'X')).toThrow(/unknown kind/);
  });

  it('turns codes into numeric ids', () => {
    expect(idOfCode('31')).toBe(31);
    expect(idOfCode('31.71.01.1001')).toBe(3171011001);
    expect(() => idOfCode('31;drop')).toThrow();
  });
});
