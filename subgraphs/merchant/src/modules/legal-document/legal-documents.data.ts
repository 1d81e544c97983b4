/** Published legal documents served at GET /public/legal-documents?code=. Text is ours; bump `version` and `publishedAt` on every change. */
export interface LegalDocumentSeed {
  code: 'terms_of_service' | 'privacy_policy';
  title: string;
  version: string;
  status: 'published';
  pageTitle: string;
  heroTitle: string;
  heroSubtitle: string;
  infoTitle: string;
  infoDescription: string;
  supportTitle: string;
  supportBody: string;
  sections: { title: string; body: string }[];
  publishedAt: string; // RFC 3339 with +07:00, e.g. '2026-11-01T00:00:00+07:00'
}

export const LEGAL_DOCUMENTS: LegalDocumentSeed[] = [
  {
    code: 'terms_of_service',
    title: 'Syarat dan Ketentuan Layanan',
    version: '1.0.0',
    status: 'published',
    pageTitle: 'Syarat dan Ketentuan',
    heroTitle: 'Syarat dan Ketentuan Layanan',
    heroSubtitle: 'Aturan penggunaan Layanan untuk menerima pembayaran QRIS dan mengelola usaha Anda.',
    infoTitle: 'Harap dibaca dengan saksama',
    infoDescription:
      'Dengan mendaftar atau terus menggunakan Layanan, Anda menyatakan telah membaca, memahami, dan menyetujui Syarat dan Ketentuan ini. Jika Anda tidak setuju, mohon tidak menggunakan Layanan.',
    supportTitle: 'Butuh bantuan?',
    supportBody:
      'Hubungi tim dukungan kami melalui menu Bantuan di aplikasi atau kirim email ke dukungan@example.id. Sertakan nomor telepon terdaftar dan uraian singkat pertanyaan Anda.',
    sections: [
      {
        title: '1. Definisi',
        body: '"Layanan" adalah aplikasi dan sistem yang kami sediakan untuk membantu Merchant menerima pembayaran QRIS dan mengelola usahanya. "Merchant" atau "Anda" adalah orang perseorangan atau badan usaha yang terdaftar dan menggunakan Layanan. "QRIS" adalah Quick Response Code Indonesian Standard yang ditetapkan oleh Bank Indonesia. "Mitra Pembayaran" adalah bank atau penyedia jasa pembayaran (PJP) berizin yang bekerja sama dengan kami untuk memproses transaksi QRIS.',
      },
      {
        title: '2. Kelayakan dan Pendaftaran',
        body: 'Untuk mendaftar, Anda harus cakap melakukan perbuatan hukum menurut hukum yang berlaku, berusia paling sedikit 18 tahun, dan memiliki nomor telepon aktif. Anda wajib memberikan data yang benar dan terkini, termasuk Nomor Induk Kependudukan (NIK) sesuai KTP, data usaha, dan rekening penerimaan dana. NPWP tidak diwajibkan bagi usaha mikro, tetapi dapat diminta sesuai jenis usaha atau ketentuan Mitra Pembayaran. Kami dan Mitra Pembayaran berhak melakukan verifikasi identitas (KYC) serta menolak pendaftaran yang tidak memenuhi persyaratan.',
      },
      {
        title: '3. Layanan QRIS',
        body: 'Setelah pendaftaran disetujui, Anda akan memperoleh National Merchant ID (NMID) yang diterbitkan melalui Mitra Pembayaran. Layanan menyediakan QRIS statis yang dapat dicetak dan dipajang, serta QRIS dinamis dengan nominal yang dibuat untuk setiap transaksi. Dana hasil transaksi yang berhasil diteruskan ke rekening penerimaan yang Anda daftarkan sesuai jadwal penyelesaian (settlement) yang ditampilkan di aplikasi. Keterlambatan dapat terjadi karena hari libur, gangguan sistem perbankan, atau pemeriksaan atas transaksi yang mencurigakan.',
      },
      {
        title: '4. Biaya',
        body: 'Atas transaksi QRIS dikenakan Merchant Discount Rate (MDR) sebesar yang ditetapkan dalam ketentuan Bank Indonesia untuk kategori usaha Anda. Besaran MDR dan biaya lain yang berlaku selalu ditampilkan di aplikasi sebelum Anda menggunakan fitur yang bersangkutan. Kami tidak mengenakan biaya tersembunyi, dan setiap perubahan biaya akan diberitahukan terlebih dahulu melalui aplikasi.',
      },
      {
        title: '5. Kewajiban Merchant',
        body: 'Anda wajib menggunakan Layanan hanya untuk transaksi penjualan barang atau jasa yang sah dan sesuai dengan jenis usaha yang didaftarkan. Anda dilarang menerima pembayaran untuk barang atau jasa yang dilarang peraturan perundang-undangan, memecah satu transaksi menjadi beberapa transaksi, melakukan transaksi fiktif atau tarik tunai, serta membebankan biaya tambahan kepada pembeli karena membayar dengan QRIS. QRIS hanya boleh dipajang di lokasi usaha atau kanal penjualan milik Anda, dan Anda wajib menjaganya agar tidak diganti atau ditempeli kode lain oleh pihak yang tidak berwenang.',
      },
      {
        title: '6. Fitur Kasir dan Pengelolaan Usaha',
        body: 'Layanan dapat menyediakan fitur kasir (point of sale), pencatatan produk, stok, dan laporan penjualan. Data yang Anda masukkan ke fitur tersebut menjadi tanggung jawab Anda, termasuk kebenaran harga dan informasi produk. Laporan dalam aplikasi bersifat informatif dan tidak menggantikan pembukuan resmi atau kewajiban perpajakan Anda.',
      },
      {
        title: '7. Penangguhan dan Pengakhiran',
        body: 'Kami dapat menangguhkan atau mengakhiri akses Anda apabila data verifikasi identitas (KYC) kedaluwarsa atau tidak diperbarui, terdapat dugaan pelanggaran Syarat dan Ketentuan atau peraturan perundang-undangan, atau akun tidak digunakan untuk bertransaksi selama 6 (enam) bulan berturut-turut. Penangguhan juga dapat dilakukan atas permintaan Mitra Pembayaran atau otoritas yang berwenang. Anda dapat meminta penutupan akun kapan saja melalui aplikasi atau tim dukungan. Dana hasil transaksi yang sah dan belum diselesaikan tetap diteruskan kepada Anda, kecuali ditahan berdasarkan ketentuan hukum.',
      },
      {
        title: '8. Data Pribadi dan Privasi',
        body: 'Kami memproses data pribadi Anda sesuai dengan Kebijakan Privasi yang merupakan bagian tidak terpisahkan dari Syarat dan Ketentuan ini. Kebijakan Privasi menjelaskan data yang kami kumpulkan, tujuan pemrosesan, pihak yang menerima data, serta hak-hak Anda sebagai subjek data pribadi. Silakan membaca Kebijakan Privasi melalui menu yang tersedia di aplikasi.',
      },
      {
        title: '9. Batasan Tanggung Jawab',
        body: 'Kami berupaya menjaga Layanan tetap tersedia dan aman, tetapi tidak menjamin Layanan bebas dari gangguan, termasuk gangguan pada jaringan telekomunikasi, sistem Mitra Pembayaran, atau keadaan kahar. Sepanjang diizinkan hukum, kami tidak bertanggung jawab atas kerugian tidak langsung, kehilangan keuntungan, atau kerugian yang timbul dari kelalaian Anda menjaga kerahasiaan akun dan kode verifikasi. Batasan ini tidak mengurangi hak Anda yang dilindungi peraturan perundang-undangan.',
      },
      {
        title: '10. Perubahan Syarat dan Ketentuan',
        body: 'Kami dapat mengubah Syarat dan Ketentuan ini dari waktu ke waktu untuk menyesuaikan dengan perkembangan Layanan atau peraturan yang berlaku. Perubahan yang material akan kami beritahukan melalui aplikasi sebelum mulai berlaku. Dengan tetap menggunakan Layanan setelah perubahan berlaku, Anda dianggap menyetujui perubahan tersebut.',
      },
      {
        title: '11. Hukum yang Berlaku dan Penyelesaian Sengketa',
        body: 'Syarat dan Ketentuan ini tunduk pada hukum Negara Republik Indonesia. Setiap keluhan atau perselisihan akan diupayakan diselesaikan terlebih dahulu secara musyawarah melalui tim dukungan kami. Apabila tidak tercapai kesepakatan, perselisihan dapat diselesaikan melalui lembaga alternatif penyelesaian sengketa atau pengadilan yang berwenang sesuai peraturan perundang-undangan.',
      },
      {
        title: '12. Hubungi Kami',
        body: 'Pertanyaan, keluhan, atau permintaan terkait Syarat dan Ketentuan ini dapat disampaikan melalui menu Bantuan di aplikasi atau email ke dukungan@example.id. Kami akan menanggapi setiap pengaduan dalam jangka waktu yang wajar dan memberi tahu Anda perkembangan penanganannya.',
      },
    ],
    publishedAt: '2026-11-01T00:00:00+07:00',
  },
  {
    code: 'privacy_policy',
    title: 'Kebijakan Privasi',
    version: '1.0.0',
    status: 'published',
    pageTitle: 'Kebijakan Privasi',
    heroTitle: 'Kebijakan Privasi',
    heroSubtitle: 'Cara kami mengumpulkan, menggunakan, dan melindungi data pribadi Anda.',
    infoTitle: 'Komitmen kami terhadap data Anda',
    infoDescription:
      'Kebijakan ini disusun dengan mengacu pada Undang-Undang Nomor 27 Tahun 2022 tentang Pelindungan Data Pribadi. Kami hanya memproses data yang diperlukan untuk menjalankan Layanan dan memenuhi kewajiban hukum.',
    supportTitle: 'Pertanyaan tentang privasi?',
    supportBody:
      'Hubungi Pejabat Pelindungan Data Pribadi kami di privasi@example.id, atau tim dukungan melalui menu Bantuan di aplikasi maupun email dukungan@example.id.',
    sections: [
      {
        title: '1. Ruang Lingkup',
        body: 'Kebijakan Privasi ini berlaku untuk seluruh data pribadi yang kami proses ketika Anda mendaftar dan menggunakan Layanan, termasuk aplikasi dan situs kami. Dalam kebijakan ini, "kami" bertindak sebagai pengendali data pribadi atas data yang dikumpulkan melalui Layanan. Kebijakan ini merupakan bagian dari Syarat dan Ketentuan Layanan.',
      },
      {
        title: '2. Data yang Kami Kumpulkan',
        body: 'Kami mengumpulkan data identitas dan kontak, seperti nama, nomor telepon, email, dan Nomor Induk Kependudukan (NIK) beserta foto KTP untuk verifikasi. Kami juga mengumpulkan data usaha (nama dan jenis usaha, alamat, lokasi, serta rekening penerimaan dana), data perangkat (model perangkat, sistem operasi, pengenal aplikasi, dan alamat IP), serta data transaksi (nominal, waktu, status, dan referensi pembayaran QRIS). Data yang Anda masukkan ke fitur kasir, seperti produk dan penjualan, juga tersimpan di Layanan.',
      },
      {
        title: '3. Tujuan dan Dasar Pemrosesan',
        body: 'Kami memproses data untuk mendaftarkan dan memverifikasi akun, menerbitkan QRIS dan memproses transaksi bersama Mitra Pembayaran, meneruskan dana ke rekening Anda, mencegah penipuan, serta memberikan dukungan dan meningkatkan Layanan. Dasar pemrosesan yang kami gunakan sesuai UU Pelindungan Data Pribadi meliputi pelaksanaan perjanjian dengan Anda, pemenuhan kewajiban hukum (misalnya ketentuan sistem pembayaran serta anti pencucian uang dan pencegahan pendanaan terorisme), kepentingan yang sah, dan persetujuan Anda. Untuk pemrosesan berdasarkan persetujuan, seperti penawaran dari mitra, kami akan meminta persetujuan secara tersendiri.',
      },
      {
        title: '4. Pengungkapan kepada Pihak Lain',
        body: 'Kami membagikan data yang diperlukan kepada bank dan penyedia jasa pembayaran mitra untuk penerbitan NMID, pemrosesan transaksi QRIS, dan penyelesaian dana. Data Anda hanya dibagikan kepada mitra lain, misalnya penyedia pembiayaan atau asuransi, apabila Anda memberikan persetujuan atau mengajukan permohonan rujukan sebagaimana ditampilkan di aplikasi. Kami juga dapat mengungkapkan data kepada otoritas yang berwenang apabila diwajibkan oleh peraturan perundang-undangan atau perintah pengadilan. Penyedia layanan teknologi yang membantu kami terikat perjanjian kerahasiaan dan hanya memproses data sesuai instruksi kami.',
      },
      {
        title: '5. Penyimpanan dan Retensi',
        body: 'Kami menyimpan data pribadi selama akun Anda aktif dan selama diperlukan untuk tujuan pemrosesannya. Catatan transaksi dan dokumen terkait keuangan disimpan selama jangka waktu yang diwajibkan peraturan perundang-undangan, antara lain ketentuan mengenai dokumen perusahaan serta anti pencucian uang, yang pada umumnya hingga 10 (sepuluh) tahun. Setelah masa retensi berakhir, data akan dimusnahkan atau dianonimkan sehingga tidak lagi dapat mengidentifikasi Anda.',
      },
      {
        title: '6. Keamanan Data',
        body: 'Kami menerapkan langkah teknis dan organisasi yang wajar untuk melindungi data, termasuk enkripsi data saat dikirim dan disimpan, penyimpanan kata sandi, PIN, dan rahasia lain dalam bentuk hash, serta pembatasan akses berdasarkan peran dan kebutuhan. Akses ke sistem dicatat dan ditinjau secara berkala. Apabila terjadi kegagalan pelindungan data pribadi, kami akan memberitahukannya kepada Anda dan lembaga yang berwenang sesuai jangka waktu yang diatur dalam UU Pelindungan Data Pribadi.',
      },
      {
        title: '7. Hak Anda sebagai Subjek Data',
        body: 'Sesuai UU Pelindungan Data Pribadi, Anda berhak mengakses dan memperoleh salinan data pribadi Anda, memperbaiki data yang tidak akurat, serta meminta penghapusan atau pemusnahan data. Anda juga berhak menarik kembali persetujuan yang telah diberikan dan mengajukan keberatan atas pemrosesan tertentu, termasuk keputusan yang sepenuhnya didasarkan pada pemrosesan otomatis. Permintaan dapat diajukan melalui aplikasi atau email ke privasi@example.id; sebagian hak dapat dibatasi apabila data masih wajib kami simpan berdasarkan peraturan perundang-undangan.',
      },
      {
        title: '8. Transfer Data ke Luar Negeri',
        body: 'Pada prinsipnya data Anda disimpan dan diproses di Indonesia. Apabila data perlu ditransfer ke luar wilayah hukum Republik Indonesia, misalnya karena penggunaan penyedia layanan teknologi, kami hanya melakukannya sesuai ketentuan UU Pelindungan Data Pribadi, yaitu ke negara dengan tingkat pelindungan yang setara atau lebih tinggi, dengan pelindungan yang memadai dan mengikat, atau dengan persetujuan Anda.',
      },
      {
        title: '9. Data Anak',
        body: 'Layanan ditujukan bagi pelaku usaha yang telah berusia paling sedikit 18 tahun, dan kami tidak dengan sengaja mengumpulkan data pribadi anak. Apabila kami mengetahui bahwa data anak telah diberikan tanpa persetujuan orang tua atau wali, kami akan menghapus data tersebut. Hubungi kami apabila Anda mengetahui hal demikian.',
      },
      {
        title: '10. Perubahan Kebijakan Privasi',
        body: 'Kami dapat memperbarui Kebijakan Privasi ini untuk menyesuaikan dengan perubahan Layanan atau peraturan. Versi dan tanggal berlaku selalu dicantumkan pada dokumen ini, dan perubahan yang material akan diberitahukan melalui aplikasi sebelum berlaku. Apabila perubahan memerlukan persetujuan baru, kami akan memintanya secara terpisah.',
      },
      {
        title: '11. Pejabat Pelindungan Data Pribadi',
        body: 'Kami telah menunjuk Pejabat Pelindungan Data Pribadi yang dapat dihubungi melalui email privasi@example.id untuk pertanyaan, permintaan pelaksanaan hak, atau pengaduan terkait data pribadi. Anda juga dapat menghubungi tim dukungan melalui menu Bantuan di aplikasi. Kami akan menanggapi permintaan Anda dalam jangka waktu yang ditetapkan peraturan perundang-undangan.',
      },
    ],
    publishedAt: '2026-11-01T00:00:00+07:00',
  },
];
