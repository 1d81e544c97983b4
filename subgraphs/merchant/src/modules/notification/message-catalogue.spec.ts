import { MESSAGES, LANGUAGES, calendarDay, languageOf, messageText, rupiah, templateText } from './message-catalogue';

describe('message catalogue', () => {
  it('writes rupiah as Indonesians do: Rp, dots between thousands, no decimals', () => {
    expect(rupiah(25_000)).toBe('Rp25.000');
    expect(rupiah(1_250_000)).toBe('Rp1.250.000');
    expect(rupiah(1_000)).toBe('Rp1.000');
    expect(rupiah(999)).toBe('Rp999');
    expect(rupiah(0)).toBe('Rp0');
    expect(rupiah(-500)).toBe('-Rp500');
    expect(rupiah(9_007_199_254_740_991)).toBe('Rp9.007.199.254.740.991');
  });

  it('knows id and en; anything else (no settings, no user) is Indonesian', () => {
    expect(languageOf('en')).toBe('en');
    expect(languageOf('id')).toBe('id');
    expect(languageOf(null)).toBe('id');
    expect(languageOf('fr')).toBe('id');
  });

  const notice = {
    merchant: 'Warung',
    scope: 'korporat',
    bank: '014',
    account: '******2345',
    holder: 'BUDI',
    effective: '1 Desember 2026 10.00 WITA',
  };

  it('has every message in every language, none empty', () => {
    const samples: Record<string, object> = {
      otp: { code: '123456' },
      email_otp: { code: '123456' },
      login_alert: { deviceName: null },
      payment_received: { merchantName: 'Warung', amount: 25_000 },
      merchant_transaction_alert: { merchantName: 'Warung', amount: 25_000, transactionCode: 'TRX-1' },
      daily_summary: { merchantName: 'Warung', businessDay: '2026-11-29', count: 1, grossAmount: 1, netAmount: 1, bestOutlet: null },
      suspension_warning: { merchantName: 'Warung', reason: 'inactivity', suspendsOn: '2026-12-13', inactivityMonths: 6 },
      settlement_account_changed: notice,
      settlement_account_change_cancelled: notice,
      statement_ready: {
        merchant: 'Warung',
        scope: 'semua outlet',
        month: 'Oktober 2026',
        count: '3',
        gross: 'Rp25.000',
        net: 'Rp24.650',
        path: '/merchant/statements/x/download?format=pdf',
      },
      till_cash_difference: {
        merchantName: 'Warung',
        kind: 'shift',
        day: '2026-11-29',
        cashierName: 'Sari',
        expectedCash: 250_000,
        countedCash: 225_000,
        difference: -25_000,
      },
    };
    expect(Object.keys(MESSAGES).sort()).toEqual(Object.keys(samples).sort());
    for (const [name, params] of Object.entries(samples))
      for (const language of LANGUAGES) {
        const text = (MESSAGES as Record<string, Record<string, (p: object) => { title: string; body: string }>>)[name][language](params);
        expect(text.title.length).toBeGreaterThan(0);
        expect(text.body.length).toBeGreaterThan(0);
      }
  });

  it('renders a till close’s cash difference, short or over, day or shift, in each language', () => {
    const short = {
      merchantName: 'Warung Kopi',
      kind: 'day' as const,
      day: '2026-11-29',
      cashierName: null,
      expectedCash: 250_000,
      countedCash: 225_000,
      difference: -25_000,
    };
    expect(messageText('till_cash_difference', 'id', short)).toEqual({
      title: 'Kas kurang Rp25.000',
      body: 'Tutup hari 29 November 2026 di Warung Kopi: kas dihitung Rp225.000, seharusnya Rp250.000.',
    });
    expect(messageText('till_cash_difference', 'en', short)).toEqual({
      title: 'Cash short by Rp25.000',
      body: 'Day close of 29 November 2026 at Warung Kopi: counted Rp225.000, expected Rp250.000.',
    });
    const over = { ...short, kind: 'shift' as const, cashierName: 'Sari', countedCash: 255_000, difference: 5_000 };
    expect(messageText('till_cash_difference', 'id', over).title).toBe('Kas lebih Rp5.000');
    expect(messageText('till_cash_difference', 'id', over).body).toMatch(/^Tutup shift Sari 29 November 2026 di Warung Kopi/);
    expect(messageText('till_cash_difference', 'en', over).body).toMatch(/^Shift close of Sari of 29 November 2026 at Warung Kopi/);
  });

  it('renders the daily summary with the day, figures and best outlet in each language', () => {
    const figures = {
      merchantName: 'Warung Kopi',
      businessDay: '2026-11-29',
      count: 12,
      grossAmount: 1_250_000,
      netAmount: 1_238_250,
      bestOutlet: { name: 'Pusat', grossAmount: 900_000 },
    };
    expect(messageText('daily_summary', 'id', figures)).toEqual({
      title: 'Ringkasan harian Warung Kopi',
      body: '29 November 2026: 12 transaksi berhasil, kotor Rp1.250.000, bersih Rp1.238.250 setelah MDR dan biaya layanan harian. Outlet terbaik: Pusat (Rp900.000).',
    });
    expect(messageText('daily_summary', 'en', { ...figures, count: 1, bestOutlet: null })).toEqual({
      title: 'Daily summary Warung Kopi',
      body: '29 November 2026: 1 successful transaction, gross Rp1.250.000, net Rp1.238.250 after MDR and the daily service fee.',
    });
    expect(calendarDay('id', '2026-01-05')).toBe('5 Januari 2026');
  });

  it('renders the suspension warning for each reason with the day it takes effect', () => {
    const warning = { merchantName: 'Warung Kopi', suspendsOn: '2026-12-13', inactivityMonths: 6 };
    expect(messageText('suspension_warning', 'id', { ...warning, reason: 'inactivity' })).toEqual({
      title: 'Warung Kopi akan ditangguhkan',
      body: 'Warung Kopi tidak memiliki transaksi berhasil selama 6 bulan dan akan ditangguhkan mulai 13 Desember 2026. Terima satu pembayaran sebelum tanggal itu agar tetap aktif.',
    });
    expect(messageText('suspension_warning', 'en', { ...warning, reason: 'kyc_expired' }).body).toBe(
      'The KYC verification of Warung Kopi expires. The merchant will be suspended from 13 December 2026. Contact us to update your data.',
    );
  });

  it('renders templates sent by name; unknown names have no text', () => {
    expect(templateText('email_otp', 'en', { code: '654321' })?.body).toContain('654321');
    expect(templateText('custom_template', 'id', {})).toBeNull();
    expect(templateText('toString', 'id', {})).toBeNull();
  });
});
