# Bahasa Indonesia: bahasa utama bot. Setiap teks untuk pengguna ada di sini (dan di en.ftl).
# Nilai uang dan waktu sudah diformat oleh kode (Rp10.000, WIB) sebelum masuk ke sini.

## Umum
sandbox-banner = 🧪 <b>MODE SANDBOX</b>: bukan uang sungguhan.
error-generic = ⚠️ Maaf, terjadi kesalahan. Coba lagi sebentar lagi.
button-expired = Tombol ini sudah tidak berlaku. Buka /menu untuk mulai lagi.
rate-limited = ⏳ Terlalu cepat. Tunggu sebentar lalu coba lagi.
fallback-hint = 🤔 Maaf, bot tidak mengerti pesan itu. Buka /menu untuk memilih, atau /bantuan.
private-only = 🔒 Perintah ini hanya bisa dipakai di chat pribadi dengan bot.
button-open-private = 💬 Buka chat pribadi dengan bot
menu-group = 🔒 Menu, transaksi dan saldo hanya ada di chat pribadi dengan bot, agar API key dan saldo Anda tidak terlihat anggota grup. Tekan tombol di bawah.
not-linked = 🔑 Akun Anda belum terhubung. Kirim /start lalu tempelkan API key dari dashboard penyedia.
not-linked-staff = 🔑 Akun pemilik toko tidak lagi terhubung ke bot, jadi belum bisa berjualan. Minta pemilik toko menghubungkan API key-nya lagi.
cancelled = ❌ Dibatalkan.
nothing-to-cancel = Tidak ada proses yang sedang berjalan.
button-cancel = ❌ Batal
button-back = ⬅️ Kembali
button-next = Berikutnya ➡️
button-prev = ⬅️ Sebelumnya
button-menu = 🏠 Menu
upstream-unavailable = 🌐 Server penyedia sedang tidak bisa dihubungi. Coba lagi sebentar lagi.
upstream-unexpected = 🌐 Server penyedia memberi jawaban yang tidak dikenali. Coba lagi sebentar lagi.
upstream-rejected = ❗ Penyedia menolak: { $message }
step-timeout = ⌛ Waktu habis (10 menit tanpa jawaban). Proses dihentikan, silakan mulai lagi.
flow-lost-after-update = 🔄 Bot baru saja diperbarui, jadi langkah yang sedang berjalan dihentikan dan jawaban ini tidak dipakai. Silakan mulai lagi dari /menu.

## Start dan menghubungkan API key
welcome =
    👋 Halo, { $name }!

    Bot ini membantu Anda berjualan pulsa, paket data, token listrik, voucher game, bayar tagihan, transfer dan deposit saldo, langsung dari Telegram, memakai akun reseller Anda sendiri.
welcome-ask-key =
    🔑 Untuk mulai, kirim <b>API key</b> Anda (ambil dari dashboard penyedia, menu API/H2H).
    Pesan berisi API key akan langsung dihapus dari chat ini.
welcome-linked =
    ✅ Akun Anda sudah terhubung (API key { $mask }).
    Buka /menu untuk mulai bertransaksi, atau /kunci untuk mengganti API key.
key-ask = 🔑 Kirim API key yang baru. Pesannya akan langsung dihapus. Ketik /batal untuk batal.
key-checking = 🔍 Memeriksa API key…
key-linked =
    ✅ <b>API key terhubung</b>
    Nama: { $name }
    Saldo: { $balance }
    API key: <code>{ $mask }</code>

    Buka /menu untuk mulai.
key-rejected =
    ❌ API key tidak diterima penyedia: { $message }

    Periksa lagi API key di dashboard penyedia. Jika pesan di atas menyebut alamat IP, daftarkan IP itu di whitelist akun Anda. Lalu kirim API key lagi.
key-check-failed = 🌐 API key belum bisa diperiksa karena server penyedia tidak bisa dihubungi. Kirim lagi sebentar lagi.
key-invalid-format = Itu tidak terlihat seperti API key (satu baris tanpa spasi). Kirim API key dari dashboard penyedia, atau /batal.
key-not-deleted = ⚠️ Bot tidak bisa menghapus pesan berisi API key. Hapus sendiri pesan itu.
key-lost-relink = 🔑 API key Anda yang tersimpan tidak bisa dibaca lagi setelah ada perubahan di server bot, jadi sudah dihapus. Tidak ada pembelian atau saldo yang terpakai. Tempel API key Anda di sini untuk menghubungkannya lagi (pesannya langsung dihapus).
key-in-group =
    🚨 { $name }, pesan Anda tadi terlihat seperti API key, jadi { $deleted ->
        [yes] sudah dihapus
       *[no] harus segera Anda hapus sendiri
    }. Jangan kirim API key di grup. Buka chat pribadi dengan bot untuk langkah berikutnya.
key-in-group-private =
    🚨 Pesan Anda di grup <b>{ $group }</b> terlihat seperti API key. { $deleted ->
        [yes] Bot sudah menghapusnya.
       *[no] Bot tidak bisa menghapusnya: hapus sendiri segera.
    }
    Anggap API key itu sudah bocor: buat API key baru di dashboard penyedia, lalu hubungkan di sini dengan /kunci.
key-how-to-link =
    🔑 Akun Anda belum terhubung. Untuk mulai, salin <b>API key</b> dari dashboard penyedia (menu API/H2H) lalu kirim ke sini: satu baris tanpa spasi. Pesan berisi API key langsung dihapus.
    Pesan lain tidak dikirim ke penyedia.
key-already-linked = 🔑 API key itu sudah terhubung ke chat ini, jadi tidak perlu dikirim lagi. Pesannya sudah dihapus demi keamanan.
key-other-pasted = 🔑 Itu terlihat seperti API key lain. Pesannya sudah dihapus demi keamanan. Untuk mengganti API key yang terhubung, kirim /kunci lalu kirim API key yang baru.
key-shared-elsewhere =
    ⚠️ <b>API key Anda juga dihubungkan di chat lain</b>
    API key <code>{ $mask }</code> yang terhubung di sini baru saja dihubungkan juga oleh { $who }. Sekarang { $count } chat bisa membeli dengan saldo yang sama.

    Jika Anda tidak membagikannya, anggap API key itu bocor: buat API key baru di dashboard penyedia, lalu kirim /kunci di sini.
key-linked-shared = ℹ️ API key ini juga terhubung di { $count } chat lain. Chat yang lebih dulu memakainya sudah diberi tahu.
logout-done = 👋 API key sudah dihapus dari bot. Kirim /start untuk menghubungkan lagi.
logout-stops = ⚠️ { $what ->
        [staff] Staf Anda tidak bisa berjualan sampai API key dihubungkan lagi.
        [shop] Tautan toko online tidak bisa dipakai berbelanja sampai API key dihubungkan lagi.
       *[both] Staf Anda tidak bisa berjualan dan tautan toko online tidak bisa dipakai berbelanja sampai API key dihubungkan lagi.
    }
logout-none = Tidak ada API key yang terhubung.

## Saldo
balance-show =
    💰 <b>Saldo</b>
    Nama: { $name }
    Saldo: <b>{ $balance }</b>
    Status akun: { $status }
    API key: <code>{ $mask }</code>
balance-owed = 👥 Dompet downline: { $owed } ({ $count } downline), bagian dari saldo ini.
balance-owed-short = ⚠️ Dompet downline berisi { $owed }, lebih dari saldo ini: isi saldo (/deposit) agar pembelian mereka tidak ditolak.
balance-status = { $status ->
        [active] Aktif
        [aktif] Aktif
        [inactive] Tidak aktif
        [suspend] Ditangguhkan
        [suspended] Ditangguhkan
       *[other] { $raw }
    }

## Callback provider (/webhook): status instan
webhook-show =
    🔔 <b>Status instan (callback provider)</b>
    URL callback akun Anda:
    <code>{ $url }</code>

    Cara memasang:
    1. Masuk ke dashboard atlantich2h.com dan buka pengaturan Webhook / Callback.
    2. Tempel URL di atas ke kolom URL webhook, lalu simpan.
    3. Lakukan satu transaksi: kabar statusnya datang dalam beberapa detik.

    { $state }
    Jangan bagikan URL ini. Jika bocor, tekan "Buat URL baru": URL lama langsung tidak berlaku.
webhook-none-yet = Callback: belum ada yang masuk. Status tetap dicek otomatis secara berkala.
webhook-working = Callback: berfungsi, terakhir { $at }
webhook-new-button = 🔁 Buat URL baru
webhook-renewed = URL baru dibuat. URL lama tidak berlaku lagi: tempel yang baru di dashboard.
webhook-sandbox =
    🔔 <b>Status instan (mode sandbox)</b>
    Sandbox mengirim callback sendiri ke bot ini: tidak ada yang perlu ditempel di dashboard. Dengan provider asli, /webhook menampilkan URL Anda jika bot punya PUBLIC_URL.
    { $state }
webhook-off =
    🔔 Status instan (callback provider) tidak aktif di bot ini.
    Tidak apa-apa: status setiap transaksi tetap dicek otomatis secara berkala, dan Anda dikabari saat berubah.

## Bahasa
# This language, named in itself: its button in the language picker.
language-self = 🇮🇩 Bahasa Indonesia
language-choose = 🌐 Pilih bahasa:
language-set = ✅ Bahasa diganti ke Bahasa Indonesia.

## Menu dan bantuan
menu-title = 🏠 <b>Menu utama</b>. Pilih yang ingin Anda lakukan:
menu-prices = 📋 Harga
menu-topup = 📱 Beli
menu-bill = 🧾 Tagihan
menu-transfer = 💸 Transfer
menu-deposit = 🏦 Deposit
menu-balance = 💰 Saldo
menu-history = 📜 Riwayat
menu-status = 🔎 Cek status
menu-alerts = 🔔 Peringatan saldo
menu-language = 🌐 Bahasa
menu-help = ❓ Bantuan
menu-report = 📊 Laporan
menu-customers = 📒 Pelanggan
menu-markup = 💹 Harga jual
menu-shop = 🏪 Toko
menu-export = 📄 Ekspor
help-title = ❓ <b>Bantuan</b>
help-menu = menu utama
help-saldo = cek saldo
help-harga = daftar harga (contoh: <code>/harga tsel 10</code>; ringkasan perubahan harga: <code>/harga ringkasan</code>)
help-beli = beli pulsa, data, token, voucher (cepat: <code>/beli KODE TUJUAN</code>)
help-tagihan = cek dan bayar tagihan
help-transfer = transfer ke bank atau e-wallet
help-deposit = isi saldo
help-status = cek status transaksi (<code>/status ID</code>)
help-riwayat = riwayat transaksi
help-toko = nama toko untuk struk pelanggan (<code>/toko Nama | alamat, WA</code>)
help-pesanan = pesanan toko online
help-laporan = laporan penjualan, untung dan ringkasan harian
help-ekspor = unduh transaksi sebulan sebagai CSV
help-pelanggan = pelanggan tersimpan (cari: <code>/pelanggan budi</code>)
help-alerts = peringatan saldo menipis
help-markup = harga jual toko Anda (untung per produk)
help-hargajual = harga jual tetap satu produk
help-webhook = status instan (URL callback provider)
help-bahasa = ganti bahasa
help-kunci = ganti API key
help-staf = kasir dan admin toko (undang, ubah peran, keluarkan)
help-audit = catatan audit (siapa mengubah apa)
help-keluar = hapus API key dari bot
help-batal = batalkan proses yang berjalan
help-downline = downline Anda: dompet, level, undangan
help-mutasi = mutasi dompet Anda (downline)
help-tarik = tarik saldo dompet ke rekening bank atau e-wallet (downline)
help-keluar-staff = berhenti menjadi staf (pemilik dan saldonya tidak berubah)

## Daftar perintah (setMyCommands)
cmd-start = Mulai dan hubungkan API key
cmd-start-staff = Mulai
cmd-menu = Menu utama
cmd-saldo = Cek saldo
cmd-harga = Daftar harga
cmd-beli = Beli produk
cmd-tagihan = Cek dan bayar tagihan
cmd-transfer = Transfer bank atau e-wallet
cmd-deposit = Isi saldo
cmd-status = Cek status transaksi
cmd-riwayat = Riwayat transaksi
cmd-pesanan = Pesanan toko online
cmd-laporan = Laporan penjualan dan untung
cmd-ekspor = Ekspor transaksi ke CSV
cmd-pelanggan = Pelanggan tersimpan
cmd-alerts = Peringatan saldo
cmd-markup = Harga jual (markup)
cmd-hargajual = Harga jual tetap satu produk
cmd-webhook = Status instan (URL callback)
cmd-bahasa = Ganti bahasa
cmd-kunci = Ganti API key
cmd-keluar = Hapus API key
cmd-keluar-staff = Berhenti menjadi staf
cmd-batal = Batalkan proses
cmd-bantuan = Bantuan
cmd-toko = Nama toko untuk struk

## Langkah-langkah alur
flow-send-text = Kirim jawaban berupa teks, atau tekan tombol.
flow-search-hint = 🔎 Ketik kata kunci untuk mencari, atau pilih dari daftar.
flow-tap-a-button = Pilih salah satu tombol di atas, atau /batal.
flow-tap-a-button-or-beli = Pilih salah satu tombol di atas, atau /batal. Bila kodenya sudah tahu, ketik langsung /beli KODE TUJUAN (mis. /beli S10 081234567890).
flow-search-none = Tidak ada yang cocok dengan "{ $query }". Pilih dari daftar ini, atau ketik kata lain.
flow-left = ↩️ Langkah yang sedang berjalan dihentikan karena Anda mengirim perintah lain. Belum ada yang dibeli atau dikirim; mulai lagi bila perlu.

## Konfirmasi dan hasil transaksi
button-confirm = ✅ Konfirmasi
button-check-status = 🔄 Cek status
button-retry = 🔁 Coba lagi
confirm-title = 🧾 <b>Periksa sebelum konfirmasi</b>
confirm-cancelled-title = ❌ <b>Dibatalkan</b>. Tidak ada yang dibeli dan saldo tidak terpotong.
confirm-waiting = ☝️ Layar konfirmasi di atas menunggu ✅ Konfirmasi atau ❌ Batal. Untuk mengubah data, tekan ❌ Batal lalu mulai lagi.
confirm-waiting-target = ☝️ Layar konfirmasi di atas menunggu ✅ Konfirmasi atau ❌ Batal. Untuk membeli ke nomor lain, cukup kirim nomor itu.
confirm-expired = Layar konfirmasi ini sudah kedaluwarsa (lebih dari 10 menit). Silakan mulai lagi.
confirm-already = Transaksi ini sudah diproses.
confirm-was-cancelled = Layar ini sudah dibatalkan (atau kedaluwarsa), jadi tidak ada yang dikirim. Mulai lagi dari /menu.
confirm-sending = Memproses…
confirm-sending-title = ⏳ <b>Mengirim ke penyedia…</b> Jangan ulangi transaksi ini; hasilnya menyusul di pesan berikutnya.
confirm-sent-title = ☑️ <b>Sudah dikirim ke penyedia.</b> Hasilnya ada di pesan berikutnya.
confirm-balance = Saldo Anda: <b>{ $balance }</b>
confirm-wallet = 👛 Dari dompet Anda: { $price }, ditahan sampai hasilnya jelas; dikembalikan bila gagal.
confirm-payout-wallet = 👛 Penarikan dompet { $name }: dompetnya dipotong { $amount } (sudah ditahan) bila transfer berhasil. Biaya admin dari saldo Anda.
confirm-balance-unread = Saldo Anda: tidak terbaca dari penyedia saat ini (cek dengan /saldo).
provider-checking = ⏳ Mengecek ke penyedia…
confirm-low-balance =
    ❌ <b>Saldo tidak cukup</b>: total { $total }, saldo Anda { $balance } (kurang { $missing }).
    Tidak ada yang dikirim ke penyedia. Isi saldo dulu lewat Deposit, lalu ulangi.
confirm-low-balance-staff =
    ❌ <b>Saldo pemilik tidak cukup</b>: total { $total }, saldo pemilik { $balance } (kurang { $missing }).
    Tidak ada yang dikirim ke penyedia. Hubungi pemilik toko untuk mengisi saldo, lalu ulangi.
confirm-low-balance-hidden =
    ❌ Saldo pemilik tidak cukup untuk penjualan ini; hubungi pemilik toko.
    Tidak ada yang dikirim ke penyedia.
confirm-duplicate =
    ⚠️ <b>Sudah ada pembelian { $what } untuk { $target } pukul { $time }</b> ({ $status }, ID <code>{ $ref }</code>).
    Beli lagi? Bila ya, keduanya bisa berhasil dan saldo terpotong dua kali.
button-buy-again = 🔁 Ya, beli lagi
confirm-not-saved = ⚠️ Tidak ada yang dikirim dan saldo tidak terpotong: bot gagal menyimpan langkah ini. Silakan tekan Konfirmasi lagi sebentar lagi.
store-unavailable = ⚠️ Penyimpanan bot sedang bermasalah; tidak ada transaksi yang dikirim. Coba lagi sebentar lagi.
money-rejected = ❌ <b>Ditolak penyedia</b>: { $message }
money-pending = ⏳ Sedang diproses. Bot akan mengabari Anda saat statusnya berubah.
money-unknown =
    ❓ <b>Hasil belum diketahui</b> karena server penyedia tidak menjawab dengan jelas. Saldo mungkin sudah terpotong.
    Jangan ulangi transaksi ini. Bot akan terus memeriksanya; cek juga dengan <code>/status { $ref }</code>.
money-unsaved =
    ❓ <b>Terkirim; hasilnya belum tersimpan</b>: provider sudah menjawab, tetapi penyimpanan bot sedang bermasalah. Saldo Anda mungkin sudah terpotong.
    Jangan ulangi transaksi ini. Bot memeriksanya lagi begitu penyimpanan pulih; Anda juga bisa cek dengan <code>/status { $ref }</code>.
retry-start-again = Silakan mulai lagi dari /menu.
retry-already = Layar konfirmasi baru sudah dibuat untuk transaksi ini. Gunakan yang itu.

status-draft = Menunggu konfirmasi
status-sending = Dikirim
status-unknown = Belum diketahui
status-pending = Diproses
status-processing = Diproses penyedia
status-success = Berhasil
status-failed = Gagal
status-expired = Kedaluwarsa
status-cancel = Dibatalkan
status-deposit-pending = Menunggu pembayaran
status-deposit-processing = Sudah dibayar, masuk saldo hari kerja berikutnya (H+1)
status-deposit-releasing = Sudah dibayar, pencairan instan diminta

kind-prepaid = Pembelian
kind-postpaid = Pembayaran tagihan
kind-transfer = Transfer
kind-deposit = Deposit

receipt-target = Tujuan
receipt-customer = Nama pelanggan
receipt-amount = Nominal
receipt-fee = Biaya
receipt-total = Total
file-receipt = struk
file-report = laporan
file-export = transaksi
file-wallet = mutasi-dompet
receipt-sn-serial = SN
receipt-sn-token = Token
receipt-sn-bill = No. referensi tagihan
receipt-status = Status
receipt-message = Keterangan
receipt-shop-order = Pesanan toko
receipt-ref = ID referensi
receipt-upstream-id = ID penyedia
receipt-created = Waktu
receipt-cost = Harga modal
receipt-sale-price = Harga jual
receipt-profit = Untung

# Harga dan pembelian prabayar (/harga, /beli). Uang sudah diformat oleh kode (Rp10.000).

## Daftar harga
prices-title = 📋 <b>Daftar harga</b>. Pilih kategori:
topup-title = 📱 <b>Beli produk</b>. Pilih kategori:
prices-hint =
    🔎 Cari langsung: <code>/harga tsel 10</code>, <code>/harga pln</code>, <code>/harga ff</code>
    ⚡ Beli cepat: <code>/beli KODE TUJUAN</code>
prices-button-bills = 🧾 Tagihan
prices-button-refresh = 🔄 Perbarui harga
prices-button-all = 📂 Semua kategori
prices-button-buy = 🛒 Beli
prices-button-pay-bill = 🧾 Cek & bayar tagihan
prices-choose-provider = <b>{ $category }</b>: pilih provider.
prices-products-title = <b>{ $category } › { $provider }</b>
prices-pick-product = Ketuk produk untuk melihat detailnya. ⛔ = stok kosong.
topup-pick-product = Ketuk produk untuk membelinya. ⛔ = stok kosong, tidak bisa dibeli.
prices-page = Halaman { $page } dari { $pages }
prices-category = Kategori
prices-availability = Ketersediaan
prices-cost-line = modal { $cost }
prices-sale-price = Harga jual
prices-cost = Harga modal
prices-available = ✅ Tersedia
prices-empty = ⛔ Stok kosong (tidak bisa dibeli sekarang)
prices-search-title = 🔎 Hasil untuk "<b>{ $query }</b>": { $count } produk
prices-search-none = 🔎 Tidak ada produk yang cocok dengan "{ $query }". Coba kata lain (mis. <code>tsel 10</code>, <code>pln 50</code>) atau lihat semua kategori.
prices-search-narrow = Terlalu banyak hasil: tambahkan kata lain untuk mempersempit pencarian.
prices-bills-title = 🧾 <b>Layanan tagihan (pascabayar)</b>. Biaya admin per lembar tagihan:
prices-bill-line = • <b>{ $name }</b> (<code>{ $code }</code>): admin { $admin }
prices-bill-line-empty = • ⛔ <b>{ $name }</b> (<code>{ $code }</code>): admin { $admin }, sedang gangguan
prices-bills-none = Belum ada layanan tagihan.
prices-admin-on-bill = sesuai tagihan
prices-refreshed = 🔄 Daftar harga diperbarui.
prices-refreshed-all = 🔄 Semua daftar harga yang tersimpan sudah dihapus; permintaan berikutnya mengambil harga terbaru.
prices-list-changed = Daftar harga sudah berubah. Silakan pilih lagi.

## Pembelian
topup-product-line = 🛒 <b>{ $name }</b> (<code>{ $code }</code>): <b>{ $price }</b>
topup-note-line = ℹ️ Catatan: { $note }
topup-unknown-code = ❓ Produk dengan kode <code>{ $code }</code> tidak ditemukan. Lihat kode produk di /harga, atau cari dengan kata, mis. <code>/harga tsel 10</code>.
topup-empty = ⛔ <b>{ $name }</b> (<code>{ $code }</code>) sedang kosong, jadi tidak bisa dibeli sekarang. Coba produk lain di /harga.
topup-empty-alert = ⛔ { $name } sedang kosong, tidak bisa dibeli sekarang.
topup-empty-no-alt = ⛔ <b>{ $name }</b> (<code>{ $code }</code>) sedang kosong, dan tidak ada produk lain dengan nominal yang sama.
topup-empty-nearest = Yang terdekat dari { $provider }, ketuk untuk membeli:
prices-button-operator = 📋 Semua { $provider }
topup-confirm-product = Produk
topup-confirm-code = Kode
topup-confirm-target = Tujuan
topup-confirm-price = Harga
topup-confirm-old-list = ⏳ Penyedia sedang lambat, jadi harga diambil dari daftar { $minutes } menit lalu. Bila harganya sudah naik, pembelian ditolak dan saldo tidak terpotong.
topup-confirm-cost = Harga modal
topup-confirm-sale = Harga jual
topup-confirm-profit = Untung
topup-price-changed = 💱 Harganya berubah: sekarang <b>{ $price }</b> (tadi { $old }). Tekan "Coba lagi" untuk membeli dengan harga baru.
topup-price-changed-hidden = 💱 Harga produk ini baru saja berubah. Tekan "Coba lagi" untuk membeli dengan harga jual terbaru.
topup-now-empty = ⛔ { $name } sekarang sedang kosong.

## Harga jual (/markup, /hargajual)
markup-title = 💹 <b>Harga jual toko Anda</b>
markup-none = Belum ada aturan: semua produk dijual seharga modal.
markup-line-all = Semua produk: { $markup }
markup-line-category = Kategori { $name }: { $markup }
markup-line-product = Produk { $code }: { $markup }
markup-line-fixed = Harga tetap { $code }: { $price }
markup-line-bills = Tagihan (admin toko Anda): +{ $fee }
markup-explain =
    Yang paling khusus berlaku: harga tetap › kode produk › kategori › semua produk. Harga jual dibulatkan ke atas ke kelipatan Rp100. Transfer dan deposit tanpa markup.
    Contoh: <code>/markup 2000</code> · <code>/markup 5%</code> · <code>/markup pulsa 1500</code> · <code>/markup PLN100 2500</code> · <code>/markup tagihan 2500</code> (admin toko untuk tagihan) · <code>/hargajual S10 12000</code>
    Hapus: <code>/markup hapus pulsa</code> · <code>/markup hapus tagihan</code> · <code>/markup hapus</code> (aturan semua produk) · <code>/markup hapus semua</code>
markup-saved = ✅ Aturan harga jual disimpan. Berlaku untuk layar konfirmasi berikutnya.
markup-cleared = ✅ Semua aturan harga jual dihapus.
markup-unreadable = ❓ Aturan tidak terbaca. Contoh: <code>/markup 2000</code> (Rp2.000 per penjualan), <code>/markup 5%</code>, <code>/markup pulsa 1500</code>, <code>/markup PLN100 2500</code>. Tidak ada yang diubah.
markup-percent-range = ❓ Persen harus antara 0% dan 100%, mis. <code>/markup 5%</code>. Tidak ada yang diubah.
markup-flat-range = ❓ Markup paling besar { $max } per penjualan, mis. <code>/markup 2000</code>. Tidak ada yang diubah.
markup-bills-flat = ❓ Admin toko untuk tagihan berupa nominal rupiah, bukan persen, mis. <code>/markup tagihan 2500</code>. Tidak ada yang diubah.
markup-unknown-target = ❓ Tidak ada kategori atau kode produk { $word }. Kategori: { $categories }. Contoh: <code>/markup pulsa 1500</code> atau <code>/markup PLN100 2500</code>. Tidak ada yang diubah.
markup-no-rule = Tidak ada aturan untuk { $what }, jadi tidak ada yang dihapus. Lihat aturan Anda dengan /markup.
markup-what-all = semua produk
sellprice-usage = Tetapkan harga jual satu produk: <code>/hargajual KODE HARGA</code>, mis. <code>/hargajual PLN100 102500</code>. Hapus: <code>/hargajual PLN100 hapus</code>.
sellprice-unreadable = ❓ Harga tidak terbaca. Tidak ada yang diubah.
sellprice-unknown-code = ❓ Produk dengan kode { $code } tidak ditemukan. Lihat kode di /harga. Tidak ada yang diubah.
sellprice-set = ✅ Harga jual { $name } ({ $code }) sekarang { $price } (modal saat ini { $cost }, untung { $profit }).
sellprice-below-cost = ⚠️ Di bawah harga modal saat ini ({ $cost }): Anda rugi pada setiap penjualan.
sellprice-removed = ✅ Harga tetap { $code } dihapus; aturan /markup berlaku lagi.
sellprice-none-for = Tidak ada harga tetap untuk { $code }. Lihat aturan Anda dengan /markup.

## Tujuan
target-ask-phone = 📞 Kirim nomor HP tujuan (mis. <code>081234567890</code>).
target-ask-emoney = 📞 Kirim nomor HP yang terdaftar di akun e-money tujuan (mis. <code>081234567890</code>).
target-ask-pln = ⚡ Kirim nomor meter atau ID pelanggan PLN (11–12 digit, ada di kartu/struk token).
target-ask-game = 🎮 Kirim ID akun game tujuan.
target-ask-game-server = 🎮 Kirim ID dan server akun game, mis. <code>12345678 1234</code> atau <code>12345678(1234)</code>.
target-ask-text = ✏️ Kirim tujuan pengisian seperti yang diminta catatan produk.
target-empty = Tujuan belum diisi. Kirim tujuannya, atau tekan Batal.
target-one-line = Tujuan harus satu baris saja. Kirim lagi.
target-phone-invalid = ❗ Itu bukan nomor HP yang benar. Kirim nomor yang diawali 08, 628 atau +628 (10–13 digit), mis. <code>081234567890</code>.
target-phone-operator = ❗ Nomor <code>{ $number }</code> adalah nomor { $numberOperator }, sedangkan produk ini untuk { $productOperator }. Kirim nomor { $productOperator }, atau pilih produk lain dengan /batal.
target-pln-invalid = ❗ Nomor meter PLN berisi 11–12 angka, ID pelanggan 12 angka (10–13 angka diterima): kirim lagi atau tekan ❌ Batal.
target-game-server-invalid = ❗ Kirim ID dan server, mis. <code>12345678 1234</code>, <code>12345678(1234)</code> atau <code>12345678|1234</code>.
target-text-length = ❗ Tujuan harus { $min }–{ $max } karakter. Kirim lagi.
target-text-chars = ❗ Tujuan hanya boleh berisi huruf, angka, spasi dan tanda . - _ ( ) # @. Kirim lagi.

## Tagihan pascabayar (/tagihan)
bill-choose-service =
    🧾 <b>Bayar tagihan</b>
    Pilih layanan tagihan:
bill-service-off = ⛔ { $name } (gangguan)
bill-service-unavailable = ⛔ Layanan <b>{ $name }</b> sedang gangguan di penyedia dan belum bisa dipakai. Pilih layanan lain, atau coba lagi nanti.
bill-no-services = Penyedia belum menyediakan layanan tagihan untuk akun Anda.
bill-ask-number =
    🧾 <b>{ $service }</b>
    Ketik nomor pelanggan (ID pelanggan) yang tagihannya ingin dicek.
bill-provider-note = ℹ️ { $note }
bill-number-not-digits = Nomor pelanggan hanya berisi angka (spasi dan tanda hubung boleh). Ketik lagi nomornya, atau tekan Batal.
bill-number-length = Nomor pelanggan terdiri dari { $min } sampai { $max } angka, yang Anda ketik { $length } angka. Periksa lalu ketik lagi.
bill-not-found =
    ❌ Penyedia menjawab: { $message }
    Nomor ini tidak terdaftar di layanan { $service }. Periksa lagi nomornya, atau pastikan layanannya benar.
bill-already-paid =
    ✅ Penyedia menjawab: { $message }
    Tidak ada tagihan yang perlu dibayar untuk nomor ini sekarang: tagihannya sudah lunas, atau tagihan baru belum terbit.
bill-number-other = Ketik nomor pelanggan lain, atau tekan Batal.
bill-retry-or-other = Tekan Coba lagi untuk mengecek nomor yang sama, ketik nomor lain, atau tekan Batal.

bill-line-number = Nomor pelanggan: { $number }
bill-line-name = Nama pelanggan: { $name }
bill-line-tariff = Tarif/daya: { $tariff } / { $power }
bill-line-participants = Jumlah peserta: { $count }
bill-line-periods = Periode ({ $sheets } lembar):
bill-period = • { $period }: { $amount }
bill-period-penalty = • { $period }: { $amount } + denda { $penalty }
bill-period-only = • { $period }
bill-period-months = { $count } bulan
bill-line-bill = Tagihan: { $amount }
bill-line-admin = Biaya admin: { $amount }
bill-line-total = <b>Total tagihan pelanggan: { $amount }</b>
bill-line-cost = Harga modal Anda (dipotong dari saldo): <b>{ $amount }</b>
bill-line-shop-fee = Biaya admin toko Anda: { $amount }
bill-line-sale = Harga jual: <b>{ $amount }</b>
bill-line-profit = Untung: <b>{ $amount }</b>

bill-low-balance = Saldo Anda { $balance }, sedangkan tagihan ini memotong { $cost }. Isi saldo lewat /deposit, lalu tekan Coba lagi (tagihan akan dicek ulang).
bill-low-balance-short = Isi saldo lewat /deposit, lalu tekan Coba lagi (tagihan akan dicek ulang).
bill-low-balance-staff = Saldo pemilik tidak cukup untuk membayar tagihan ini; hubungi pemilik toko, lalu tekan Coba lagi (tagihan akan dicek ulang).

# Transfer ke bank atau e-wallet (/transfer).

transfer-choose-bank = 💸 <b>Transfer</b>. Pilih bank atau e-wallet tujuan:
transfer-choice-bank = 🏦 { $name }
transfer-choice-ewallet = 👛 { $name } (e-wallet)
transfer-search-none = Tidak ada bank atau e-wallet yang cocok dengan "{ $query }". Pilih dulu dari daftar ini (nomor rekening ditanya sesudahnya), atau ketik sebagian namanya, mis. <code>bca</code> atau <code>dana</code>.
transfer-no-banks = Penyedia belum menyediakan bank atau e-wallet tujuan. Coba lagi nanti.
transfer-dest-bank = { $name }
transfer-dest-ewallet = { $name } (e-wallet)
transfer-ask-account = { $type ->
    [ewallet] Kirim nomor <b>{ $bank }</b> tujuan (nomor HP yang terdaftar di e-wallet).
   *[bank] Kirim nomor rekening <b>{ $bank }</b> tujuan.
}
transfer-account-bad-format = Nomor rekening harus 5–20 angka (spasi dan tanda hubung boleh). Ketik lagi nomornya.
transfer-account-invalid = ❌ Nomor <code>{ $number }</code> di { $bank } tidak ditemukan atau tidak valid. Periksa lagi lalu ketik nomor yang benar.
transfer-account-processing = ⏳ Nomor <code>{ $number }</code> di { $bank } sedang dicek oleh penyedia. Coba lagi sebentar lagi dengan tombol di bawah, atau ketik nomor lain.
transfer-account-check-failed = Nomor <code>{ $number }</code> di { $bank } belum bisa dicek. Tekan tombol di bawah untuk cek lagi, atau ketik nomor lain.
transfer-button-check-again = 🔄 Cek lagi
transfer-account-found =
    ✅ <b>{ $type ->
        [ewallet] Akun ditemukan
       *[bank] Rekening ditemukan
    }</b>
    Tujuan: { $bank }
    Nomor: <code>{ $number }</code>
    Atas nama: <b>{ $holder }</b>
transfer-ask-amount = Berapa nominal transfernya? Ketik dalam rupiah, misalnya 50000, 50.000, 50rb atau 1jt. Minimal { $min }.
transfer-amount-invalid = Nominal tidak dikenali. Ketik dalam rupiah bulat, misalnya 50000, 50.000, 50rb atau 1jt.
transfer-amount-too-small = Nominal transfer minimal { $min }. Ketik nominal lagi.
transfer-over-balance = ❌ Saldo Anda { $balance } tidak cukup untuk transfer { $amount }.
transfer-over-balance-fee = ❌ Saldo Anda { $balance } tidak cukup untuk transfer { $amount } ditambah biaya (sampai { $fee }).
transfer-over-balance-retype = Ketik nominal yang lebih kecil, paling banyak { $max }, atau batalkan lalu isi saldo lewat Deposit. Belum ada yang dikirim ke penyedia.
transfer-over-balance-retype-fee-unknown = Ketik nominal yang lebih kecil: saldo harus cukup untuk nominal ditambah biaya transfer. Atau batalkan lalu isi saldo lewat Deposit. Belum ada yang dikirim ke penyedia.
transfer-over-balance-none = Saldo ini belum cukup untuk transfer minimal { $min } beserta biayanya. Batalkan, isi saldo lewat Deposit, lalu ulangi. Belum ada yang dikirim ke penyedia.
transfer-ask-note = Tambahkan catatan untuk transfer ini (maksimal { $max } karakter), atau tekan Lewati.
transfer-button-skip = ⏭ Lewati
transfer-note-too-long = Catatan terlalu panjang ({ $length } karakter, maksimal { $max }). Ketik yang lebih pendek, atau tekan Lewati.
transfer-confirm =
    💸 <b>Transfer ke { $bank }</b>
    Nomor tujuan: <code>{ $number }</code>
    Atas nama: <b>{ $holder }</b>
    Nominal: { $amount } (yang diterima pemilik rekening)
transfer-fee-estimate =
    Biaya admin: ≈ { $fee } (perkiraan dari transfer Anda sebelumnya ke { $type ->
        [ewallet] e-wallet
       *[bank] bank
    }; jumlah pastinya ditentukan penyedia dan tampil di struk)
    Dari saldo keluar: ≈ { $total } (nominal + biaya admin)
transfer-fee-bound =
    Biaya admin: paling tinggi { $fee } (batas biaya penyedia untuk transfer ke { $type ->
        [ewallet] e-wallet
       *[bank] bank
    }; jumlah pastinya tampil di struk)
    Dari saldo keluar: paling banyak { $total } (nominal + biaya admin)
transfer-fee-highest =
    Biaya admin: ditentukan penyedia, paling tinggi { $fee } sejauh ini di transfer Anda; jumlah pastinya tampil di struk
    Dari saldo keluar: nominal + biaya admin, sejauh ini paling banyak { $total }
transfer-fee-unknown =
    Biaya admin: ditentukan penyedia dan ditambahkan di atas nominal (belum ada transfer sebelumnya untuk perkiraan); jumlah pastinya tampil di struk
    Dari saldo keluar: { $amount } + biaya admin
transfer-confirm-note = Catatan: { $note }
receipt-holder = Atas nama

## Deposit (/deposit)
deposit-choose-method = 🏦 <b>Deposit saldo</b>. Pilih metode pembayaran:
deposit-method-line = • <b>{ $method }</b>: { $limits }, biaya { $fee }
deposit-no-methods = Saat ini tidak ada metode deposit yang aktif. Coba lagi nanti.
deposit-fee-free = gratis
deposit-ask-amount =
    💵 Berapa nominal deposit lewat <b>{ $method }</b>?
    Minimal { $min }, maksimal { $max }. Contoh: <code>50000</code>, <code>50.000</code>, <code>50rb</code>, <code>1jt</code>.
deposit-amount-invalid = Nominal tidak dikenali. Tulis dalam rupiah tanpa sen, misalnya <code>50000</code>, <code>50rb</code> atau <code>1jt</code>.
deposit-amount-out-of-range = Nominal di luar batas metode ini: minimal { $min }, maksimal { $max }. Ketik nominal lain.

deposit-confirm-method = Metode: <b>{ $method }</b>
deposit-confirm-fee = Perkiraan biaya: { $fee } ({ $rule })
deposit-confirm-fee-only = Perkiraan biaya: { $fee }
deposit-confirm-credited = Perkiraan masuk ke saldo: <b>{ $credited }</b>
deposit-confirm-bank-addon = ℹ️ Penyedia menambahkan kode unik kecil pada nominal transfer; jumlah pastinya tampil setelah konfirmasi.
deposit-confirm-note = Biaya dan saldo masuk di atas masih perkiraan; angka pasti dari penyedia tampil setelah konfirmasi.

deposit-instructions-title = 🏦 <b>Deposit { $method }</b>
deposit-qris-howto = Pindai QR ini dengan aplikasi e-wallet atau m-banking apa saja yang mendukung QRIS.
deposit-va-howto = Bayar ke nomor Virtual Account berikut (ketuk nomornya untuk menyalin).
deposit-bank-howto = Transfer ke rekening berikut (ketuk nomornya untuk menyalin).
deposit-ewallet-howto = Tekan tombol <b>Bayar</b> di bawah untuk membayar di aplikasi e-wallet.
deposit-line-bank = Bank: <b>{ $bank }</b>
deposit-line-va = Nomor VA: <code>{ $va }</code>
deposit-line-account = No. rekening: <code>{ $account }</code>
deposit-line-holder = Atas nama: { $holder }
deposit-line-transfer-exact = Jumlah transfer: <code>{ $digits }</code> (<b>{ $amount }</b>)
deposit-bank-exact-warning = ⚠️ Transfer <b>TEPAT { $amount }</b> (sudah termasuk kode unik { $extra }), jangan dibulatkan, agar deposit terdeteksi otomatis.
deposit-line-amount = Nominal: <b>{ $amount }</b>
deposit-line-fee = Biaya: { $fee }
deposit-line-credited = Masuk ke saldo: <b>{ $credited }</b>
deposit-line-expires = Bayar sebelum: <b>{ $time }</b>
deposit-line-ref = ID referensi: <code>{ $ref }</code>
deposit-credit-on-success = Saldo bertambah setelah pembayaran berhasil; bot akan mengabari Anda.
deposit-no-code = ⚠️ Deposit ini tercatat di penyedia, tetapi kode pembayarannya (QR atau nomor VA) tidak bisa diambil karena jawaban penyedia saat dibuat hilang. Deposit ini tidak bisa dibayar: batalkan, lalu buat deposit baru. Saldo Anda tidak terpotong.
deposit-unknown =
    ❓ <b>Hasil belum diketahui</b>: server penyedia tidak menjawab dengan jelas. Saldo Anda tidak terpotong: deposit tidak mengambil apa pun dari saldo.
    Bot sedang memeriksa apakah kode pembayarannya (QR atau nomor VA) sudah dibuat, dan mengirimkannya ke sini begitu ditemukan. Jangan buat deposit yang sama lagi; cek juga dengan <code>/status { $ref }</code>.
deposit-unsaved =
    ❓ <b>Terkirim; hasilnya belum tersimpan</b>: penyedia sudah menjawab, tetapi penyimpanan bot sedang bermasalah. Saldo Anda tidak terpotong: deposit tidak mengambil apa pun dari saldo.
    Jangan buat deposit yang sama lagi. Bot memeriksanya lagi begitu penyimpanan pulih dan mengirim kode pembayarannya; cek juga dengan <code>/status { $ref }</code>.

deposit-button-pay = 💳 Bayar
deposit-button-cancel = 🚫 Batalkan deposit
deposit-button-release = ⚡ Cairkan sekarang
deposit-button-release-confirm = ⚡ Ya, cairkan
deposit-button-release-later = Nanti saja

deposit-cancelled = 🚫 <b>Deposit dibatalkan.</b> Jangan membayar deposit ini lagi.
deposit-cancel-ask = 🚫 Batalkan deposit ini? Setelah dibatalkan, kode pembayarannya tidak berlaku lagi. Ref: <code>{ $ref }</code>
deposit-button-cancel-yes = 🚫 Ya, batalkan
deposit-button-cancel-no = Tidak
deposit-cancel-kept = Deposit <code>{ $ref }</code> tidak dibatalkan: masih bisa dibayar.
# Words on the grey image that replaces a payment QR that can no longer be paid.
deposit-void-cancel = DIBATALKAN
deposit-void-expired = KEDALUWARSA
deposit-void-failed = GAGAL
deposit-void-do-not-pay = Jangan dibayar
# Words on the green image that replaces a payment QR once it is paid (nobody pays it twice).
qr-card-paid = LUNAS
qr-card-paid-note = Sudah dibayar
deposit-cancel-not-yet = Deposit ini belum tercatat di penyedia, jadi belum bisa dibatalkan. Cek statusnya dulu.
deposit-cancel-refused = ℹ️ Deposit <code>{ $ref }</code> tidak bisa dibatalkan lagi. Status sekarang: { $status }.
deposit-processing-hint = Pembayaran sudah diterima. Saldo masuk hari kerja berikutnya, atau tekan ⚡ Cairkan sekarang (dengan biaya penanganan).

deposit-release-already = Pencairan deposit ini sudah diminta.
deposit-release-unavailable = Deposit ini belum bisa dicairkan sekarang. Status: { $status }.
deposit-release-preview =
    ⚡ <b>Cairkan deposit sekarang?</b>
    ID referensi: <code>{ $ref }</code>
    Nominal: { $amount }
    Biaya penanganan: { $handling }
    Total biaya: { $total }
    Masuk ke saldo: <b>{ $received }</b>

    Tanpa pencairan, saldo masuk pada hari kerja berikutnya tanpa biaya penanganan.
deposit-release-done = ✅ <b>Deposit dicairkan.</b> { $received } masuk ke saldo (total biaya { $total }).
deposit-release-requested = ⏳ Pencairan diminta. Status: { $status }. Bot akan mengabari Anda.
deposit-release-unknown =
    ❓ <b>Hasil pencairan belum diketahui</b> karena server penyedia tidak menjawab dengan jelas. Jangan minta pencairan lagi.
    Cek dengan <code>/status { $ref }</code>.

## Pemantau status (pesan otomatis saat status transaksi berubah) dan /status

watch-success = ✅ <b>Transaksi berhasil</b>
watch-failed = ❌ <b>Transaksi gagal</b>.
watch-failed-reason = Alasan dari penyedia: { $reason }
watch-failed-no-reason = Penyedia tidak menyebutkan alasannya.
watch-money-refunded = 💰 Menurut penyedia, saldo Anda sudah dikembalikan.
watch-money-unstated = Penyedia tidak menyebutkan apakah saldo dikembalikan. Cek dengan /saldo; bila terpotong dan tidak kembali, hubungi penyedia dengan ID referensi di bawah.
watch-sale-failed-refunded-staff = 💰 Penjualan gagal; pelanggan tidak dikenai biaya: kembalikan uangnya atau coba nomor lain. (Menurut penyedia, saldo pemilik sudah dikembalikan.)
watch-sale-failed-staff = Penjualan gagal; pelanggan tidak dikenai biaya: kembalikan uangnya atau coba nomor lain. Penyedia tidak menyebutkan apakah saldo pemilik dikembalikan; pemilik toko bisa mengeceknya.
watch-deposit-success = ✅ <b>Deposit masuk</b>: { $credited } sudah ditambahkan ke saldo Anda.
watch-deposit-failed = ❌ <b>Deposit gagal</b>. Tidak ada dana yang masuk ke saldo.
watch-deposit-expired = ⌛ <b>Deposit kedaluwarsa</b>: tidak ada pembayaran yang diterima. Buat deposit baru lewat /deposit bila perlu.
watch-deposit-cancel = 🚫 <b>Deposit dibatalkan</b>. Jangan membayar instruksi deposit ini.
watch-deposit-processing =
    💳 <b>Pembayaran deposit diterima</b>.
    Dana masuk ke saldo pada hari kerja berikutnya (H+1), atau bisa dicairkan sekarang (instant) dengan biaya penanganan.
watch-unknown =
    ❓ <b>Hasil transaksi belum diketahui</b>: bot terhenti saat mengirimnya ke penyedia. Saldo mungkin sudah terpotong.
    Jangan ulangi transaksi ini. Bot terus memeriksanya; cek juga dengan <code>/status { $ref }</code>.
watch-gave-up =
    ⏳ <b>Transaksi masih diproses</b> setelah { $hours } jam. Bot berhenti memeriksanya secara otomatis.
    Cek kapan saja dengan <code>/status { $ref }</code>, atau hubungi penyedia dengan ID di bawah.
watch-gave-up-unknown =
    ❓ <b>Transaksi tidak ditemukan di penyedia</b> setelah { $hours } jam, jadi hasilnya tetap belum diketahui. Bot berhenti memeriksanya secara otomatis.
    Periksa dashboard penyedia dengan ID referensi <code>{ $ref }</code> sebelum mengulang transaksi, supaya tidak terbayar dua kali.

watch-caption-success = ✅ <b>LUNAS</b>: deposit ini sudah dibayar dan masuk ke saldo.
watch-caption-processing = ✅ <b>SUDAH DIBAYAR</b>: dana masuk ke saldo hari kerja berikutnya (H+1).
watch-caption-failed = ❌ <b>GAGAL</b>: deposit ini gagal.
watch-caption-expired = ⌛ <b>KEDALUWARSA</b>: QRIS ini tidak bisa dibayar lagi.
watch-caption-cancel = 🚫 <b>DIBATALKAN</b>: jangan bayar QRIS ini.
watch-caption-unknown = ❓ <b>Belum diketahui</b>: cek dengan /status.
watch-caption-gaveup = ⏳ <b>Masih diproses</b>: cek dengan /status.

## /status
check-not-found = 🔎 Transaksi <code>{ $id }</code> tidak ditemukan di chat ini. Periksa lagi ID-nya (ID referensi atau ID penyedia), atau lihat /riwayat.
check-choose = 🔎 Ada beberapa transaksi dengan ID <code>{ $id }</code>. Pilih yang dimaksud:
check-open-title = 🔎 <b>Transaksi yang masih diproses</b>. Pilih untuk mengecek statusnya:
check-open-more = …dan { $count } lainnya. Cek yang lain dengan <code>/status ID</code>.
check-open-none =
    ✅ Tidak ada transaksi yang sedang diproses.
    Cek transaksi mana pun dengan <code>/status ID</code>, atau lihat /riwayat.
check-upstream-error = 🌐 Status terbaru belum bisa diambil dari penyedia. Di atas adalah status terakhir yang tersimpan; coba lagi sebentar lagi.
check-not-at-provider = ❓ Penyedia belum mengenali transaksi ini. Jangan ulangi transaksinya; cek lagi nanti atau periksa dashboard penyedia dengan ID referensi <code>{ $ref }</code>.
check-still-open = ⏳ Masih diproses. Bot akan mengabari Anda saat statusnya berubah.
check-gave-up-note = ℹ️ Bot sudah berhenti memeriksa transaksi ini otomatis; tekan 🔄 untuk mengecek lagi.
check-callback-status = Status: { $status }
button-refresh-status = 🔄 Perbarui status

## Riwayat transaksi (/riwayat)
history-title = 📜 <b>Riwayat transaksi</b> (halaman { $page } dari { $pages })
history-empty = 📜 Belum ada transaksi. Mulai dari /menu.
history-tap-hint = Ketuk nomor untuk melihat detail.
history-detail-title = 🧾 <b>Detail transaksi</b>
history-updated = Diperbarui
history-cost = Harga modal
history-credited = Masuk ke saldo
history-back = ⬅️ Riwayat

## Struk untuk pelanggan (/toko, tombol 🧾 Struk)
button-receipt = 🧾 Struk
shop-show =
    🏪 <b>Struk untuk pelanggan</b>
    Nama toko: { $name }
    Baris bawah: { $footer }

    Atur: <code>/toko Nama Toko | alamat atau nomor WA</code>
    Hapus: <code>/toko hapus</code>
    Struk dikirim lewat tombol 🧾 Struk di bawah transaksi yang berhasil (pesan status atau /riwayat).
shop-not-set = <i>belum diatur</i>
shop-saved =
    ✅ Disimpan. Struk berikutnya memakai:
    Nama toko: { $name }
    Baris bawah: { $footer }
shop-cleared = ✅ Nama toko dan baris bawah dihapus. Struk memakai judul umum.
shop-name-too-long = ❌ Nama toko terlalu panjang (maksimal { $max } huruf). Tidak ada yang diubah.
shop-footer-too-long = ❌ Baris bawah terlalu panjang (maksimal { $max } huruf). Tidak ada yang diubah.
shop-name-missing = ❌ Tulis nama toko dulu, contoh: <code>/toko Cell Jaya | Jl. Melati 5, WA 0812-3456-7890</code>
shop-receipt-not-success = Struk hanya untuk transaksi yang berhasil.
shop-receipt-hint = Tip: tulis /toko Nama Toko agar nama toko Anda tampil di struk.
shop-receipt-heading = STRUK PEMBELIAN
shop-receipt-product = Produk
shop-receipt-target = Nomor tujuan
shop-receipt-customer-no = ID pelanggan
shop-receipt-customer = Nama
shop-receipt-period = Periode
shop-receipt-sn = No. seri (SN)
shop-receipt-sn-info = Keterangan
shop-receipt-token = Token listrik
shop-receipt-price = Total bayar
shop-receipt-status = BERHASIL
shop-receipt-ref = No. referensi
shop-receipt-thanks = Terima kasih!
shop-receipt-transfer-heading = BUKTI TRANSFER
shop-receipt-bank = Tujuan
shop-receipt-account = { $type ->
    [ewallet] Nomor e-wallet
   *[bank] Nomor rekening
}
shop-receipt-holder = Atas nama
shop-receipt-amount = Nominal
shop-receipt-fee = Biaya admin
shop-receipt-note = Catatan
shop-receipt-total = Total
shop-receipt-sandbox = SIMULASI · BUKAN TRANSAKSI ASLI
# Laporan dan ekspor (/laporan, /ekspor) dan ringkasan harian pukul 21.00 WIB.
report-title = 📊 <b>Laporan penjualan</b>
report-period = <b>{ $name }</b> ({ $dates })
report-period-today = Hari ini
report-period-yesterday = Kemarin
report-period-week = 7 hari terakhir
report-period-month = Bulan ini
report-sales = Terjual: { $sales } · Gagal: { $failed }
report-money = Omzet: { $turnover } · Modal: { $cost } · Untung: <b>{ $profit }</b>
report-deposits = Deposit masuk: { $credited } ({ $count }x)
report-transfers = Transfer keluar: { $amount } ({ $count }x) · biaya admin { $fees }
report-top-title = 🏆 <b>Terlaris bulan ini</b>
report-top-line = { $rank }. { $title }: { $sales }x · untung { $profit }
report-top-short = Terlaris: { $list }
report-empty = 📊 Belum ada transaksi bulan ini. Laporan terisi setelah penjualan pertama.
report-chart-title = Untung per hari · { $month }
report-chart-total = Total: { $profit } dari { $sales } penjualan
report-chart-caption = 📈 Untung per hari, { $month }.
report-button-daily-on = 🔔 Ringkasan harian 21.00 WIB: nyalakan
report-button-daily-off = 🔕 Ringkasan harian: matikan
report-daily-turned-on = 🔔 Ringkasan harian aktif: angka hari ini dikirim setiap pukul 21.00 WIB. Matikan lagi lewat /laporan.
report-daily-turned-off = 🔕 Ringkasan harian dimatikan. Nyalakan lagi lewat /laporan.
report-button-export = 📄 Ekspor CSV
daily-summary-title = 🌙 <b>Ringkasan hari ini</b> ({ $date })
daily-summary-top = 🏆 <b>Terlaris hari ini</b>
daily-summary-footer = Laporan lengkap: /laporan (ringkasan ini bisa dimatikan di sana).
export-choose = 📄 <b>Ekspor CSV</b>: pilih bulan. Filenya bisa dibuka di Excel atau Google Sheets.
export-month-empty = Tidak ada transaksi di bulan itu.
export-caption = 📄 Transaksi { $month }: { $count } baris.
csv-time = Waktu (WIB)
csv-ref = ID referensi
csv-provider-id = ID penyedia
csv-kind = Jenis
csv-code = Kode
csv-product = Produk
csv-target = Tujuan
csv-cost = Harga modal
csv-price = Harga jual
csv-profit = Untung
csv-money-in = Deposit masuk
csv-money-out = Transfer keluar
csv-status = Status
csv-sn = SN
csv-own-price = Harga Anda
csv-wallet = Dompet
csv-wallet-time = Waktu (WIB)
csv-wallet-kind = Jenis
csv-wallet-amount = Jumlah
csv-wallet-balance = Saldo
csv-wallet-ref = Referensi
csv-wallet-reason = Alasan
## Beli lagi dan pelanggan tersimpan (/pelanggan)
button-buy-again-sale = 🔁 Beli lagi
button-check-bill-again = 🔎 Cek tagihan lagi
button-save-customer = 💾 Simpan pelanggan
button-copy-sn-serial = 📋 Salin SN
button-copy-sn-token = 📋 Salin token
button-copy-sn-bill = 📋 Salin no. referensi
buy-again-open = ☝️ Layar konfirmasinya sudah ada di atas: tekan ✅ Konfirmasi di sana.
customer-ask-name =
    💾 Simpan { $target } ({ $what }) sebagai pelanggan.
    Ketik namanya, misalnya <code>Budi</code>:
customer-ask-rename = ✏️ Ketik nama baru untuk <b>{ $name }</b> ({ $target }):
customer-name-one-line = Nama cukup satu baris. Ketik lagi, atau /batal.
customer-name-length = Nama 1 sampai { $max } huruf. Ketik lagi, atau /batal.
customer-saved = ✅ { $target } disimpan sebagai <b>{ $name }</b>. Nomor ini akan muncul sebagai tombol saat Anda membeli lagi. Lihat semua: /pelanggan
customer-saved-renamed = ✅ { $target } sudah tersimpan sebagai { $old }; namanya sekarang <b>{ $name }</b>. Lihat semua: /pelanggan
customer-renamed = ✏️ <b>{ $old }</b> sekarang bernama <b>{ $name }</b>.
customer-gone = Pelanggan ini sudah tidak ada di daftar.
customers-full = 📒 Daftar pelanggan sudah penuh ({ $max }). Hapus yang tidak dipakai lewat /pelanggan, lalu simpan lagi.
customers-empty =
    📒 Belum ada pelanggan tersimpan.
    Setelah transaksi berhasil, tekan 💾 Simpan pelanggan di bawah pesannya.
customers-title = 📒 <b>Pelanggan tersimpan</b> ({ $count } dari { $max })
customers-search-title = 🔎 <b>Pelanggan "{ $query }"</b>: { $count } cocok
customers-search-none = 🔎 Tidak ada pelanggan yang cocok dengan "{ $query }". Lihat semua: /pelanggan
customers-page = Halaman { $page } dari { $pages }
customers-hint = Ketuk nama untuk ganti nama atau hapus. Cari: <code>/pelanggan budi</code>
customers-back = ⬅️ Daftar pelanggan
customer-detail-title = 👤 <b>{ $name }</b>
customer-kind-phone = Nomor HP
customer-kind-number = Nomor meter/pelanggan
customer-kind-account = Nomor rekening
customer-kind-id = ID
customer-detail-product = Dari
customer-detail-saved = Disimpan
customer-button-buy = 🛒 Beli { $product }
customer-button-rename = ✏️ Ganti nama
customer-button-delete = 🗑 Hapus
customer-button-delete-yes = 🗑 Ya, hapus
customer-button-keep = ⬅️ Jangan
customer-delete-ask = 🗑 Hapus <b>{ $name }</b> ({ $target }) dari daftar pelanggan?
customer-deleted = 🗑 <b>{ $name }</b> ({ $target }) dihapus dari daftar pelanggan.

# Peringatan saldo menipis (/peringatan, /alerts) dan pesan peringatannya.

alerts-status-off = 🔔 <b>Peringatan saldo</b>: <b>mati</b>.
alerts-status-on = 🔔 <b>Peringatan saldo</b>: aktif, Anda diberi tahu saat saldo di bawah <b>{ $threshold }</b>.
alerts-ask = Ketik batas saldo baru, misalnya <code>100000</code>, <code>100rb</code> atau <code>1jt</code>.
alerts-button-off = 🔕 Matikan peringatan
alerts-invalid = Itu bukan nominal. Ketik angka seperti <code>100000</code>, <code>100rb</code> atau <code>1,5jt</code>, atau /batal.
alerts-out-of-range = Batas saldo harus antara { $min } dan { $max }. Ketik lagi, atau /batal.
alerts-turned-off = 🔕 Peringatan saldo dimatikan. Aktifkan lagi kapan saja dengan /peringatan.
alerts-set =
    ✅ Peringatan saldo aktif: Anda diberi tahu sekali saat saldo turun di bawah <b>{ $threshold }</b>.
    Saldo diperiksa setelah setiap transaksi dan secara berkala.
alert-low =
    ⚠️ <b>Saldo menipis</b>
    Saldo Anda sekarang <b>{ $balance }</b>, di bawah batas peringatan { $threshold }.
    Isi saldo dengan /deposit. Atur peringatan: /peringatan

# Perintah admin: /admin, /broadcast (/siaran), /ceksaldo (/balances). Hanya untuk ADMIN_IDS.

admin-help =
    🛠 <b>Perintah admin</b>
    /siaran: kirim pesan (teks atau foto dengan keterangan) ke semua chat yang terhubung
    /ceksaldo: kirim saldo terkini ke setiap chat yang terhubung, dengan peringatan bila di bawah batasnya
admin-unavailable = Fitur ini belum dijalankan di bot ini.
admin-round-busy = ⏳ Pengecekan saldo sedang berjalan. Tunggu ringkasannya.
admin-round-none = Belum ada chat yang terhubung.
admin-round-started = ⏳ Mengecek saldo { $count } chat. Ringkasan dikirim setelah selesai.
admin-round-balance = 💰 <b>Saldo Anda</b>: { $balance }
admin-round-under = ⚠️ Di bawah batas peringatan Anda ({ $threshold }). Isi saldo dengan /deposit.
admin-round-summary =
    ✅ <b>Pengecekan saldo selesai</b>
    Chat: { $total }
    Terkirim: { $sent } (di bawah batas: { $under })
    Gagal: { $failed }
    Memblokir bot: { $blocked }
admin-round-under-title = Di bawah batas:
admin-round-under-line = • { $chat }: { $balance } (batas { $threshold })
admin-round-under-more = … dan { $count } chat lain

broadcast-ask =
    📣 <b>Siaran</b>
    Kirim pesan yang akan disiarkan: teks, atau satu foto dengan keterangan. Format (tebal, tautan…) ikut terkirim.
broadcast-unsupported = Kirim teks atau satu foto, atau /batal.
broadcast-button-send = 📣 Kirim
broadcast-confirm = ☝️ Pratinjau di atas persis seperti yang diterima. Kirim ke <b>{ $count }</b> chat?
broadcast-draft-gone = Draf siaran ini sudah tidak berlaku. Mulai lagi dengan /broadcast.
broadcast-no-recipients = Belum ada chat yang terhubung untuk menerima siaran.
broadcast-started = 📣 Siaran dimulai ke { $count } chat.
broadcast-cancelled = ❌ Siaran dibatalkan. Tidak ada yang dikirim.
broadcast-busy = ⏳ Sebuah siaran masih berjalan (terkirim { $sent }, sisa { $remaining }). Tunggu sampai selesai.
broadcast-progress = 📣 Siaran berjalan… Terkirim: { $sent } · Gagal: { $failed } · Memblokir: { $blocked } · Sisa: { $remaining }
broadcast-summary =
    ✅ Siaran selesai: { $sent } terkirim, { $failed } gagal, { $blocked } memblokir bot (tidak dikirimi lagi).
    { $uncertain ->
        [0] Semua chat sudah diproses.
       *[other] { $uncertain } chat sedang dikirimi saat bot berhenti mendadak; tidak dikirim ulang agar tidak dobel.
    }

store-write-failed = ⚠️ Penyimpanan bot sedang gagal menyimpan; tidak ada yang dikirim ke penyedia. Coba lagi beberapa menit lagi.
key-not-saved = ⚠️ Penyimpanan bot sedang gagal menyimpan: API key Anda diterima penyedia, tetapi belum tersimpan. Kirim API key lagi beberapa menit lagi.

## staff
cmd-staf = Staf: kasir dan admin toko
cmd-audit = Catatan audit
staff-role-cashier = kasir
staff-role-admin = admin toko
staff-the-owner = toko pemilik
staff-shop-of = toko { $owner }
staff-shop-named = { $shop } (milik { $owner })
staff-this-button = memakai tombol ini
staff-below-cost = ⛔ { $name } (<code>{ $code }</code>) belum bisa dijual: harga jualnya perlu diperbarui oleh pemilik atau admin toko. Tidak ada yang dibeli.
staff-alt-line = • <b>{ $name }</b> (<code>{ $code }</code>): <b>{ $price }</b>
staff-only-owner = 🔒 Hanya pemilik yang bisa { $what }.
staff-only-admin = 🔒 Hanya pemilik atau admin toko yang bisa { $what }.
staff-title = 👥 <b>Staf</b> ({ $count })
staff-none = Belum ada staf. Undang kasir atau admin toko dengan tombol di bawah.
staff-line = { $n }. <b>{ $name }</b> · { $role } · { $seen }
staff-seen-at = aktif terakhir { $time }
staff-never-seen = belum pernah aktif
staff-member-seen-at = Aktif terakhir: { $time }
staff-member-never-seen = Belum pernah aktif
staff-roles-help =
    <b>Kasir</b>: jual pulsa dan tagihan, cek status, riwayat penjualannya sendiri, struk, beli lagi, pelanggan.
    <b>Admin toko</b>: semua itu, ditambah harga jual, pengaturan toko, laporan, ekspor, dan riwayat semua orang.
    Hanya Anda: API key, transfer, deposit, staf, dan mematikan toko.
    Staf berjualan dengan saldo Anda; tiap transaksi mencatat siapa yang membuatnya.
staff-button-invite-cashier = ➕ Undang kasir
staff-button-invite-admin = ➕ Undang admin toko
staff-button-notices-on = 🔔 Notifikasi penjualan staf ke saya: nyala
staff-button-notices-off = 🔕 Notifikasi penjualan staf ke saya: mati
staff-button-cost-on = 👁 Kasir melihat modal dan saldo: ya
staff-button-cost-off = 🙈 Kasir melihat modal dan saldo: tidak
staff-button-make = Jadikan { $role }
staff-button-remove = 🚫 Keluarkan sekarang
staff-full = Batas staf tercapai (20 orang, termasuk undangan yang belum dipakai). Keluarkan seseorang dulu.
staff-invite-link =
    🔗 Undangan <b>{ $role }</b>, sekali pakai, berlaku sampai { $until }:
    { $link }
    Kirim tautan ini (atau teruskan pesan ini) hanya ke orang yang Anda maksud. Ia membukanya di chat pribadi dengan bot.
staff-button-join = 👥 Gabung sebagai { $role }
staff-member =
    👤 <b>{ $name }</b>
    Peran: { $role }
    Bergabung: { $since }
    { $seen }
staff-gone = Orang ini sudah bukan staf Anda.
staff-role-changed = ✅ Peran diganti menjadi { $role }. Berlaku mulai ketukan berikutnya.
staff-role-changed-you = ℹ️ Peran Anda diganti menjadi { $role }.
staff-removed = ✅ { $name } dikeluarkan. Ketukan berikutnya darinya ditolak.
staff-removed-you = ℹ️ Pemilik toko mengakhiri keanggotaan Anda sebagai staf. Anda tidak bisa lagi berjualan dengan saldonya.
staff-joined = ✅ Anda sekarang { $role } di { $shop }. Buka /menu untuk mulai berjualan. Keluar kapan saja dengan /keluar.
staff-joined-owner = 👥 { $name } bergabung sebagai { $role }.
staff-welcome = 👋 Anda { $role } di { $shop }. Buka /menu untuk berjualan; /keluar untuk berhenti menjadi staf.
staff-leave-ask = ❓ Berhenti menjadi { $role } di { $shop }? Anda tidak bisa berjualan lagi dengan saldo pemilik sampai diundang lagi.
staff-button-leave = 🚪 Ya, berhenti
staff-button-stay = ↩️ Tetap jadi staf
staff-leave-kept = 👍 Anda tetap { $role } di { $shop }.
staff-left = ✅ Anda bukan staf lagi. Tidak ada yang lain yang berubah.
staff-left-owner = 👥 { $name } keluar dari staf Anda.
staff-key-refused = 🔒 Chat staf tidak bisa menghubungkan API key; pesan itu sudah dihapus. Untuk memakai API key sendiri, keluar dulu dengan /keluar.
staff-join-unknown = ❌ Undangan ini tidak dikenal. Minta tautan baru ke pemilik toko.
staff-join-expired = ⌛ Undangan ini sudah kedaluwarsa (berlaku 24 jam). Minta tautan baru ke pemilik toko.
staff-join-used = ❌ Undangan ini sudah dipakai. Minta tautan baru ke pemilik toko.
staff-join-self = ❌ Ini undangan Anda sendiri: pemilik tidak bisa menjadi stafnya sendiri.
staff-join-owner = ❌ Chat ini sudah terhubung dengan API key sendiri: pemilik tidak bisa menjadi staf orang lain.
staff-join-staff-elsewhere = ❌ Anda staf toko lain. Keluar dulu dengan /keluar.
staff-join-already = ℹ️ Anda sudah staf toko ini.
staff-join-full = ❌ Toko ini sudah punya 20 staf.
report-per-person-title = 👥 <b>Per orang bulan ini</b>
report-per-person-line = • { $name }: { $sales } penjualan · omzet { $turnover } · untung { $profit }
report-per-person-owner = Pemilik
csv-by = Oleh
csv-by-shop = Toko online
csv-audit-time = Waktu (WIB)
csv-audit-who = Siapa
csv-audit-act = Tindakan
csv-audit-before = Sebelum
csv-audit-after = Sesudah
file-audit = audit
audit-title = 🧾 <b>Catatan audit</b> (terbaru dulu)
audit-empty = Catatan audit masih kosong.
audit-no-more = Tidak ada catatan yang lebih lama.
audit-button-more = ⬇️ Lebih lama
audit-button-export = 🧾 Catatan audit (CSV)
audit-export-caption = 🧾 Catatan audit: { $count } entri terbaru.
audit-act-key_linked = API key dihubungkan
audit-act-key_replaced = API key diganti
audit-act-key_removed = API key dihapus
audit-act-staff_invited = staf diundang
audit-act-staff_joined = staf bergabung
audit-act-staff_role_changed = peran staf diganti
audit-act-staff_removed = staf dikeluarkan
audit-act-staff_left = staf keluar
audit-act-staff_choice_changed = pengaturan staf diubah
audit-act-prices_changed = harga jual diubah
audit-act-shop_changed = pengaturan toko diubah
audit-act-transfer = transfer
audit-act-deposit_created = deposit dibuat
audit-act-deposit_cancelled = deposit dibatalkan
audit-act-deposit_released = deposit dicairkan instan
audit-act-export = ekspor
audit-act-refund = pengembalian dana
audit-export-log = catatan audit
audit-value-none = kosong
audit-prices-none = tanpa aturan (harga modal)
audit-link-old = link lama
audit-link-new = link baru
audit-setting-ownerNotices = Notifikasi penjualan staf ke pemilik
audit-setting-cashierSeesCost = Kasir melihat modal dan saldo
audit-setting-shopName = Nama toko di struk
audit-setting-shopFooter = Baris bawah struk
audit-setting-enabled = Toko online aktif
audit-setting-paused = Toko online dijeda
audit-setting-code = Kode link toko
audit-setting-link = Link toko
audit-setting-categories = Kategori dijual
audit-setting-operators = Operator dijual
audit-setting-hours = Jam buka
audit-setting-feePayer = Biaya QRIS dibayar
audit-setting-instantRelease = Lepas dana QRIS instan
audit-setting-dailyUnpaidCap = Batas QRIS belum dibayar per hari
audit-setting-contact = Kontak untuk pelanggan

## shop orders
# Pesanan toko online: QRIS pelanggan, hasil pembelian, pemberitahuan untuk pemilik toko, /pesanan.
shop-order-qr =
    🧾 <b>Bayar dengan QRIS</b>
    Produk: <b>{ $product }</b>
    Tujuan: <code>{ $target }</code>
    Total bayar: <b>{ $amount }</b>
    Berlaku sampai: { $expires }
    No. pesanan: <code>{ $ref }</code>

    Pindai QR ini dengan aplikasi bank atau e-wallet mana pun. Produk dikirim otomatis setelah pembayaran diterima.
shop-order-button-check = 🔄 Cek pembayaran
shop-order-button-cancel = ✖️ Batalkan
shop-order-check-paid = ✅ Pembayaran diterima. Pesanan sedang diproses.
shop-order-check-unpaid = Pembayaran belum diterima. Jika Anda sudah membayar, tunggu sebentar lalu cek lagi.
shop-order-qr-paid = ✅ <b>LUNAS</b>. Pembayaran diterima { $time }. Pesanan diproses.
# What the order was, under the card that replaces its QR (paid, expired, cancelled).
shop-order-qr-summary =
    Produk: <b>{ $product }</b>
    Tujuan: <code>{ $target }</code>
    Total: <b>{ $amount }</b>
    No. pesanan: <code>{ $ref }</code>
shop-order-cancelling = Pesanan dibatalkan.
shop-order-cannot-cancel = Pesanan ini tidak bisa dibatalkan lagi.
shop-order-limit-unpaid = Anda masih punya { $max } pesanan yang belum dibayar. Bayar atau batalkan dulu salah satunya.
shop-order-limit-rate = Terlalu banyak pesanan dalam waktu singkat. Coba lagi beberapa menit lagi.
shop-order-limit-daily = Toko sedang tidak menerima pesanan baru hari ini. Coba lagi besok.
shop-order-unavailable = Maaf, toko ini sedang tidak bisa menerima pembayaran. Coba lagi nanti.
shop-order-qris-refused = Maaf, QRIS tidak bisa dibuat sekarang. Tidak ada uang yang terpotong. Coba lagi nanti.
shop-order-qris-unknown = QRIS sedang disiapkan (pesanan <code>{ $ref }</code>). Kami kabari sebentar lagi; jangan membayar sebelum QR dikirim.
shop-order-expired = ⌛ QRIS pesanan <code>{ $ref }</code> ({ $product }) sudah kedaluwarsa dan pesanan ditutup. Tidak ada uang yang terpotong.
shop-order-cancelled = Pesanan <code>{ $ref }</code> ({ $product }) dibatalkan. Tidak ada uang yang terpotong.
shop-order-processing = ✅ Pembayaran pesanan <code>{ $ref }</code> diterima. Pesanan menunggu diproses oleh toko; ini bisa memakan waktu lebih lama. Produk dikirim otomatis setelah selesai, dan uang Anda aman.
shop-order-done = ✅ Pesanan Anda berhasil!
shop-order-failed =
    ⚠️ Pesanan <code>{ $ref }</code> ({ $product }) gagal diproses.
    Uang Anda aman ({ $amount }). Pilih produk lain dengan harga yang sama di bawah, atau minta uang kembali.
shop-order-failed-refund-only =
    ⚠️ Pesanan <code>{ $ref }</code> ({ $product }) gagal diproses.
    Uang Anda aman ({ $amount }). Tekan 💸 Minta uang kembali di bawah, lalu kirim nomor tujuan pengembaliannya.
shop-order-failed-reason = Alasan dari penyedia: { $reason }
shop-order-failed-absent =
    ⚠️ Pembelian pesanan <code>{ $ref }</code> ({ $product }) tidak sampai ke penyedia.
    Uang Anda aman ({ $amount }); penjual akan mengembalikannya. Tekan tombol di bawah dan kirim nomor tujuan pengembalian.
shop-order-button-alt = 🔁 { $product }
shop-order-button-refund = 💸 Minta uang kembali
shop-order-alt-buying = Diproses dengan produk pengganti.
shop-order-alt-gone = Pilihan ini sudah tidak berlaku.
shop-order-unknown = ⏳ Pesanan <code>{ $ref }</code> sudah dikirim ke penyedia, tetapi hasilnya belum pasti. Uang Anda aman; kami terus memeriksanya dan mengabari Anda.
shop-order-refund-ask =
    Ke mana uang dikembalikan? Kirim kode bank atau e-wallet dan nomornya, contoh:
    <code>DANA 081234567890</code> atau <code>BCA 1234567890</code>
shop-order-refund-ask-again = Kode bank/e-wallet atau nomor tidak dikenali. Kirim seperti contoh: <code>DANA 081234567890</code>
shop-order-refund-noted = Permintaan pengembalian dana untuk pesanan <code>{ $ref }</code> sudah diteruskan ke pemilik toko.
shop-order-refunded = 💸 Uang pesanan <code>{ $ref }</code> ({ $amount }) sudah dikembalikan.
shop-order-owner-done =
    🛒 <b>Pesanan toko terjual</b>
    Produk: { $product }
    Tujuan: <code>{ $target }</code>
    Dibayar: { $paid } (biaya QRIS { $fee })
    Modal: { $cost }
    Untung: <b>{ $profit }</b>
    Pelanggan: { $customer }
    SN: <code>{ $sn }</code>
    No. pesanan: <code>{ $ref }</code>
shop-order-owner-failed =
    ⚠️ <b>Pesanan toko gagal</b>: { $product } ke <code>{ $target }</code> ({ $reason })
    Pelanggan { $customer } sudah membayar { $paid } dan ditawari produk pengganti ({ $alternatives }) atau pengembalian dana.
    No. pesanan: <code>{ $ref }</code>
shop-order-owner-failed-refund-only =
    ⚠️ <b>Pesanan toko gagal</b>: { $product } ke <code>{ $target }</code> ({ $reason })
    Pelanggan { $customer } sudah membayar { $paid } dan ditawari pengembalian dana (tidak ada produk pengganti dengan harga yang sama).
    No. pesanan: <code>{ $ref }</code>
shop-order-owner-failed-absent =
    ⚠️ <b>Pesanan toko gagal</b>: { $product } ke <code>{ $target }</code> tidak sampai ke penyedia.
    Pelanggan { $customer } sudah membayar { $paid } dan ditawari pengembalian dana (tanpa produk lain).
    No. pesanan: <code>{ $ref }</code>
shop-order-owner-absent = Penyedia tidak punya catatan pembelian <code>{ $purchase }</code>. Periksa panel penyedia sebelum mengembalikan dana.
shop-order-reason-not-sent = pembelian tidak terkirim ke penyedia
shop-order-owner-both =
    ⚠️ <b>Pembelian dan pengembalian dana sama-sama terjadi</b> untuk pesanan <code>{ $ref }</code>.
    Penyedia ternyata mencatat pembelian <code>{ $purchase }</code> ({ $product } ke <code>{ $target }</code>) dan berhasil (SN: <code>{ $sn }</code>), sedangkan pengembalian { $paid } ke { $customer } sudah dimulai.
    Pelanggan mendapat produk dan uangnya kembali; selesaikan langsung dengan pelanggan.
shop-order-owner-unknown =
    ⏳ <b>Pesanan toko belum pasti</b>: { $product } ke <code>{ $target }</code>, dibayar { $paid } oleh { $customer }. Bot terus memeriksanya.
    No. pesanan: <code>{ $ref }</code>
shop-order-owner-topup =
    💰 <b>Saldo kurang untuk pesanan toko</b> <code>{ $ref }</code>: { $product } (modal { $cost }).
    Saldo Anda { $balance }, kurang <b>{ $missing }</b>. Pelanggan sudah membayar. Isi saldo lewat Deposit; pesanan diproses otomatis setelah saldo cukup.
shop-order-owner-refund =
    💸 <b>Pelanggan minta uang kembali</b>: pesanan <code>{ $ref }</code> ({ $product }), { $paid }, dari { $customer }.
    Ke: { $bank } <code>{ $account }</code>
    Tekan tombol di bawah untuk membuka transfer; uang baru dikirim setelah Anda konfirmasi.
shop-order-button-payout = 💸 Kembalikan uang
shop-order-payout-open = Transfer pengembalian sudah dibuka; konfirmasi di layar transfernya.
shop-order-payout-account = Rekening { $bank } <code>{ $account }</code> tidak bisa dicek sekarang. Coba lagi nanti.
orders-title = 🛒 <b>Pesanan toko</b> (terbaru dulu)
orders-empty = Belum ada pesanan di toko online Anda.
orders-line = { $time } · { $product } · { $target } · { $paid } · { $state } · <code>{ $ref }</code>
shop-order-state-draft = dibuat
shop-order-state-awaiting_payment = menunggu bayar
shop-order-state-paid = dibayar
shop-order-state-buying = diproses
shop-order-state-done = berhasil
shop-order-state-failed = gagal
shop-order-state-unknown = belum pasti
shop-order-state-cancelling = dibatalkan
shop-order-state-cancelled = batal
shop-order-state-expired = kedaluwarsa
shop-order-state-refund_requested = minta uang kembali
shop-order-state-refunding = pengembalian diproses
shop-order-state-refunded = uang dikembalikan
shop-sale-mark = toko online
report-shop-line = 🛒 Dari toko online bulan ini: { $sales } penjualan, untung { $profit } (sudah termasuk di atas).
report-network-title = 🌐 <b>Jaringan bulan ini</b>
report-network-none = Belum ada penjualan downline bulan ini.
report-network-total = Downline: { $sales } penjualan · omzet { $turnover } · margin Anda <b>{ $margin }</b>
report-network-commissions = Komisi dibayar ke upline: { $amount } (sudah dikurangkan dari margin)
report-network-level-line = • { $level }: { $sales } penjualan · omzet { $turnover } · margin { $margin }
report-network-downline-line = • { $name } ({ $level }): { $sales } penjualan · omzet { $turnover } · margin { $margin }
report-network-more = … dan { $count } downline lainnya
report-own-title = 📊 <b>Penjualan Anda</b>
report-own-spend = Dibayar dari dompet: <b>{ $spend }</b>
report-own-commission = Komisi dari downline Anda: <b>{ $amount }</b>
report-own-empty = 📊 Belum ada penjualan Anda bulan ini. Laporan terisi setelah penjualan pertama dari dompet Anda.

## prices
prices-alt-title = ⛔ <b>{ $name }</b> (<code>{ $code }</code>) sedang kosong atau gangguan. Produk lain dengan nominal yang sama, termurah dulu:
prices-alt-line = • <b>{ $name }</b> (<code>{ $code }</code>): modal { $cost }, jual <b>{ $price }</b>
prices-alt-pick = Ketuk salah satu untuk membelinya; layar konfirmasi tetap muncul dulu.
prices-alt-button = 🔁 Produk lain, nominal sama
prices-alt-above = 🔁 Produk lain dengan nominal yang sama ada di pesan sebelumnya.
prices-below-cost = ⛔ Harga jual tetap <b>{ $name }</b> (<code>{ $code }</code>) { $fixed } sekarang di bawah harga modal { $cost }, jadi tidak dijual (agar tidak rugi). Ubah dengan <code>/hargajual { $code } HARGA</code> atau hapus dengan <code>/hargajual { $code } hapus</code>.
prices-below-cost-notice = ⚠️ <b>Harga jual tetap di bawah modal</b>. Produk ini tidak dijual sampai harganya diubah dengan /hargajual:
prices-below-cost-line = • <code>{ $code }</code>: harga tetap { $fixed }, modal sekarang { $cost }
prices-digest-title = 📈 <b>Perubahan harga modal</b> produk yang Anda jual 30 hari terakhir:
prices-digest-line = { $arrow } <b>{ $name }</b> (<code>{ $code }</code>): modal { $old } → { $new }, harga jual { $price }
prices-digest-line-refused = { $arrow } <b>{ $name }</b> (<code>{ $code }</code>): modal { $old } → { $new }, harga tetap { $price } di bawah modal: tidak dijual
prices-digest-more = …dan { $count } produk lain.
prices-digest-footer = Matikan ringkasan ini: <code>/harga ringkasan off</code>. Ganti jamnya: <code>/harga ringkasan 07.30</code>.
prices-digest-on = 📈 Ringkasan perubahan harga: <b>aktif</b>, tiap hari pukul { $time } WIB, hanya jika ada perubahan.
    Matikan: <code>/harga ringkasan off</code>. Ganti jamnya: <code>/harga ringkasan 07.30</code>.
prices-digest-off = 📈 Ringkasan perubahan harga: <b>mati</b>. Nyalakan dengan <code>/harga ringkasan on</code>.
prices-digest-bad-time = ❓ Jam tidak dikenali. Contoh: <code>/harga ringkasan 08.00</code> (kelipatan 15 menit: 07.15, 07.30, 07.45).
prices-moved-today = ⬆️⬇️ = harga modal berubah hari ini.

## shop front
# Toko online: pengaturan pemilik (/toko → 🛒 Toko online) dan yang dilihat pelanggan lewat link toko.
shop-online-button = 🛒 Toko online
shop-online-what-off = menonaktifkan toko online
shop-online-what-release = mengatur pelepasan instan deposit
shop-online-owner-only = Toko online hanya untuk reseller yang sudah menghubungkan API key sendiri (/kunci).
shop-online-title = 🛒 <b>Toko online</b>: pelanggan membeli sendiri lewat link toko dan membayar dengan QRIS.
shop-online-status = Status: { $status }
shop-online-status-open = ✅ buka
shop-online-status-off = ⛔ mati
shop-online-status-paused = ⏸ dijeda
shop-online-status-closed = 🌙 di luar jam buka
shop-online-link = Link: { $link }
shop-online-all = Semua
shop-online-categories = Kategori: { $list }
shop-online-operators = Operator: { $list }
shop-online-hours = Jam buka: { $hours }
shop-online-hours-always = 24 jam
shop-online-fee = Biaya QRIS ({ $fee }) dibayar: { $payer }
shop-online-fee-customer = pelanggan (ditambahkan ke harga)
shop-online-fee-reseller = Anda (dipotong dari untung)
shop-online-release = Lepas dana QRIS instan saat saldo kurang (ada biaya dari penyedia): { $on }
shop-online-yes = ya
shop-online-no = tidak
shop-online-cap = Batas QRIS belum dibayar per hari: { $cap }
shop-online-contact = Kontak untuk pelanggan: { $contact }
shop-online-typed =
    Atur jam buka: <code>/toko jam 08.00-21.00</code> (hapus: <code>/toko jam hapus</code>)
    Batas QRIS per hari: <code>/toko batas 50</code>
    Kontak: <code>/toko kontak WA 0812-3456-7890</code> (hapus: <code>/toko kontak hapus</code>)
shop-online-button-on = ▶️ Buka toko
shop-online-button-off = ⛔ Matikan toko
shop-online-button-pause = ⏸ Jeda
shop-online-button-resume = ▶️ Lanjutkan
shop-online-button-fee = 💳 Biaya QRIS: { $payer }
shop-online-button-step = 🔢 Pembulatan: { $step }
shop-online-step = Yang dibayar pelanggan dibulatkan ke atas ke kelipatan { $step } (selisihnya menambah untung Anda).
shop-online-button-release-on = ⚡ Izinkan lepas dana instan
shop-online-button-release-off = ⚡ Jangan lepas dana instan
shop-online-button-categories = 🗂 Kategori
shop-online-button-operators = 📶 Operator
shop-online-button-link = 🔗 Link & QR
shop-online-button-new-link = ♻️ Link baru
shop-online-button-new-link-yes = ♻️ Ya, buat link baru
shop-online-button-back = ⬅️ Kembali
shop-online-categories-title = 🗂 Kategori yang dijual di toko online (✅ dijual). Ketuk untuk mengubah.
shop-online-operators-title = 📶 Operator yang dijual di toko online (✅ dijual). Ketuk untuk mengubah.
shop-online-saved = ✅ Disimpan.
shop-online-hours-invalid = ❌ Tulis jam buka seperti <code>/toko jam 08.00-21.00</code> (jam buka dan tutup berbeda), atau <code>/toko jam hapus</code> untuk 24 jam.
shop-online-cap-invalid = ❌ Tulis batas sebagai angka 1–{ $max }, mis. <code>/toko batas 50</code>.
shop-online-contact-too-long = ❌ Kontak terlalu panjang (maksimal { $max } huruf). Tidak ada yang diubah.
shop-online-contact-missing = ❌ Tulis kontaknya, mis. <code>/toko kontak WA 0812-3456-7890</code>, atau <code>/toko kontak hapus</code>.
shop-online-qr-file = qr-toko
shop-online-link-caption =
    🔗 Link toko Anda: { $link }
    Cetak QR ini di konter atau pasang di status: pelanggan yang memindainya langsung masuk ke toko Anda.
shop-online-new-link-ask = Buat link baru? Link dan QR yang lama langsung tidak berlaku lagi.
shop-online-new-link-done = ✅ Link baru dibuat. Link lama tidak berlaku lagi.
shopfront-cmd-start = Buka toko
shopfront-cmd-orders = Pesanan saya
shopfront-default-name = Toko
shopfront-not-found = 🔍 Toko tidak ditemukan. Link ini salah atau sudah tidak berlaku: minta link terbaru ke penjualnya.
shopfront-reseller-cannot = Akun ini akun reseller: akun reseller tidak bisa menjadi pelanggan toko. Buka link toko dari akun Telegram lain.
shopfront-home-title = 🛒 <b>{ $name }</b>
shopfront-home-hint = Pilih kategori, atau ketik nama produk yang dicari (mis. <code>pulsa 10</code>, <code>token 50</code>).
shopfront-popular = ⭐ Paling laris:
shopfront-empty = Belum ada produk yang dijual saat ini.
shopfront-unavailable = ⚠️ Toko sedang tidak bisa menampilkan produk. Coba lagi beberapa saat lagi.
shopfront-off = ⛔ Toko ini sedang tidak menerima pesanan.
shopfront-paused = ⏸ Toko ini sedang istirahat sebentar. Coba lagi nanti.
shopfront-closed = 🌙 Toko sedang tutup. Jam buka: { $open }–{ $close } WIB.
shopfront-category-title = 🗂 <b>{ $category }</b>: pilih produk.
shopfront-search-title = 🔍 Hasil untuk “{ $query }”: pilih produk.
shopfront-search-none = 🔍 Tidak ada produk untuk “{ $query }”. Coba kata lain, atau pilih kategori.
shopfront-search-none-here = 🔍 Tidak ada produk untuk “{ $query }” yang bisa dibeli di toko ini.
shopfront-search-why-soldout = ⛔ { $names } sedang habis.
shopfront-search-why-notsold = { $names } tidak dijual di toko ini.
shopfront-search-why-belowmin = { $names } di bawah pembayaran QRIS terkecil ({ $min }).
shopfront-search-nearest = Yang terdekat di toko ini, ketuk untuk membeli:
shopfront-product-line = 🛍 <b>{ $name }</b>: { $price }
shopfront-fee-included = Harga { $price } + biaya QRIS { $fee }
shopfront-fee-rounded = Harga { $price } + biaya QRIS { $fee } + pembulatan { $rounding }
shopfront-product-gone = Produk ini sedang tidak tersedia. Pilih produk lain.
shopfront-text-too-long = ❗ Terlalu panjang (maksimal { $max } karakter). Kirim lagi.
shopfront-summary-title = 🧾 <b>Ringkasan pesanan</b>
shopfront-summary-target = Tujuan: <code>{ $target }</code>
shopfront-summary-total = Total bayar: <b>{ $total }</b>
shopfront-button-pay = 💳 Bayar dengan QRIS
shopfront-price-changed = ℹ️ Harga berubah sejak ringkasan tadi. Periksa harga baru di bawah.
shopfront-button-home = 🏠 Toko
shopfront-button-orders = 📦 Pesanan saya
shopfront-button-contact = 📞 Kontak
shopfront-contact = 📞 Kontak toko: { $contact }
shopfront-contact-none = Toko ini belum menulis kontak.
shopfront-orders-title = 📦 <b>Pesanan saya</b>
shopfront-orders-none = Belum ada pesanan di toko ini.
shopfront-order-line = • { $product } → <code>{ $target }</code>: { $state } ({ $when })
shopfront-order-draft = disiapkan
shopfront-order-awaiting_payment = menunggu pembayaran
shopfront-order-paid = dibayar, sedang diproses
shopfront-order-buying = sedang diproses
shopfront-order-done = berhasil
shopfront-order-failed = gagal, uang aman
shopfront-order-unknown = sedang dipastikan
shopfront-order-cancelling = sedang dibatalkan
shopfront-order-cancelled = dibatalkan
shopfront-order-expired = kedaluwarsa
shopfront-order-refund_requested = menunggu pengembalian dana
shopfront-order-refunding = dana sedang dikembalikan
shopfront-order-refunded = dana dikembalikan
shopfront-customer-only = Chat ini chat pelanggan toko: perintah itu tidak tersedia di sini. Ketuk 🏠 Toko untuk berbelanja.
shopfront-no-keys = 🔒 Pesan itu dihapus: API key tidak dipakai di chat pelanggan toko.
shopfront-target-like-key = 🔒 Pesan itu dihapus: bentuknya mirip API key, bukan nomor tujuan. Kirim lagi nomor tujuan, atau tekan ❌ Batal.
shopfront-hint = Ketik nama produk yang dicari, atau ketuk /menu untuk melihat toko.
shopfront-help =
    🛒 <b>Cara belanja</b>
    1. Pilih kategori atau ketik nama produk (mis. <code>pulsa 10</code>).
    2. Ketuk produknya, lalu kirim nomor tujuan.
    3. Periksa ringkasan, lalu ketuk 💳 Bayar dengan QRIS dan bayar dari aplikasi bank atau e-wallet mana pun.
    Pesanan diproses otomatis setelah pembayaran diterima.

    /menu: toko · /pesanan: pesanan saya · /batal: batalkan · /bahasa: ganti bahasa

## Jaringan downline (/downline, /mutasi; docs/wallets.md)
cmd-downline = Downline Anda: saldo, level, undangan
cmd-mutasi = Mutasi dompet (downline)
cmd-tarik = Tarik saldo dompet (downline)
downline-title = 👥 <b>Downline Anda</b> ({ $count })
downline-none = Belum ada downline. Undang dengan tombol di bawah: satu tautan untuk satu orang, berlaku 24 jam.
downline-line = • <b>{ $name }</b> · { $level } · saldo { $balance } (ditahan { $held }) · { $sales } penjualan bulan ini · { $last }{ $state }
downline-last = aktif { $at }
downline-last-none = belum bertransaksi sejak { $since }
downline-suspended = {" "}· ⏸ dihentikan
downline-owed = Dompet downline berisi { $owed } (uang mereka yang ada di saldo penyedia Anda).
downline-page = Halaman { $page } dari { $pages }
downline-button-invite = ➕ Undang downline { $level }
downline-invite = Tautan undangan downline <b>{ $level }</b> (untuk satu orang, berlaku sampai { $until }):
    { $link }
    Kirim ke calon downline. Ia membeli dengan API key Anda, dibayar dari dompetnya sendiri, dengan harga level { $level }.
downline-full = Batas downline tercapai. Hapus downline yang tidak aktif dulu.
downline-card = 👤 <b>{ $name }</b>{ $state }
    Level: { $level } · bergabung { $since }
    Saldo dompet: <b>{ $balance }</b>
    Ditahan (transaksi berjalan): { $held }
    Bisa dipakai: { $available }
downline-button-add = ➕ Tambah saldo
downline-button-take = ➖ Ambil saldo
downline-button-level = Jadikan { $level }
downline-button-suspend = ⏸ Hentikan
downline-button-resume = ▶️ Aktifkan lagi
downline-button-remove = 🗑 Hapus
downline-remove-not-empty = Dompet masih berisi saldo atau transaksi berjalan. Ambil saldonya dulu (dengan alasan), lalu hapus.
downline-removed = { $name } bukan downline Anda lagi.
downline-removed-you = Anda bukan downline lagi. Dompet Anda kosong; tidak ada uang yang hilang.
downline-level-changed-you = Level Anda sekarang <b>{ $level }</b>. Harga baru berlaku mulai pembelian berikutnya.
downline-suspended-you = ⏸ Penjualan Anda dihentikan sementara oleh upline. Saldo dompet tetap aman.
downline-resumed-you = ▶️ Anda bisa berjualan lagi.
downline-adjust-ask-in = Berapa saldo yang ditambahkan ke dompet <b>{ $name }</b>, dan alasannya? Balas pesan ini, misalnya: <code>50000 tunai</code>
downline-adjust-ask-out = Berapa saldo yang diambil dari dompet <b>{ $name }</b>, dan alasannya? Balas pesan ini, misalnya: <code>20000 koreksi</code>
downline-adjust-placeholder = 50000 tunai
downline-adjust-bad = Tulis jumlah lalu alasan, misalnya <code>50000 tunai</code> (paling banyak Rp100.000.000). Belum ada saldo yang berubah.
    Balas pesan ini dengan jumlah dan alasannya.
downline-adjust-confirm-in = Tambah <b>{ $amount }</b> ke dompet <b>{ $name }</b>?
    Alasan: { $reason }
downline-adjust-confirm-out = Ambil <b>{ $amount }</b> dari dompet <b>{ $name }</b>?
    Alasan: { $reason }
downline-adjust-done = ✅ Tercatat di dompet.
downline-adjust-short = Tidak jadi: yang bisa diambil hanya { $available } (saldo dompet dikurangi yang ditahan untuk transaksi berjalan). Dompet tidak berubah.
downline-adjust-over = Dompet <b>{ $name }</b> hanya berisi { $available }, jadi { $amount } tidak bisa diambil. Dompet tidak berubah.
    Balas pesan ini dengan jumlah paling banyak { $available } dan alasannya.
downline-adjust-over-held = Dompet <b>{ $name }</b> berisi { $balance }, { $held } di antaranya ditahan untuk transaksi berjalan: yang bisa diambil hanya { $available }, jadi { $amount } tidak bisa diambil. Dompet tidak berubah.
    Balas pesan ini dengan jumlah paling banyak { $available } dan alasannya.
downline-adjust-nothing = Dompet <b>{ $name }</b> tidak punya saldo yang bisa diambil (berisi { $balance }, ditahan untuk transaksi berjalan { $held }). Dompet tidak berubah.
downline-adjust-cancelled = ❌ Dibatalkan. Dompet <b>{ $name }</b> tidak berubah.
downline-welcome = 👋 Anda downline level <b>{ $level }</b>. Jual dengan /beli atau /tagihan; saldo dompet di /saldo, mutasinya di /mutasi.
downline-joined = ✅ Anda sekarang downline level <b>{ $level }</b>. Isi dompet Anda sendiri dengan /deposit (QRIS) atau minta upline mengisinya, lalu jual dengan /beli. Saldo: /saldo.
downline-joined-owner = 👥 { $name } bergabung sebagai downline level { $level }. Isi dompetnya di /downline.
downline-join-unknown = Tautan undangan ini tidak dikenal. Minta tautan baru ke upline Anda.
downline-join-expired = Tautan undangan ini sudah kedaluwarsa. Minta tautan baru ke upline Anda.
downline-join-used = Tautan undangan ini sudah dipakai. Minta tautan baru ke upline Anda.
downline-join-self = Ini tautan undangan Anda sendiri: kirimkan ke calon downline.
downline-join-owner = Chat ini punya API key sendiri atau bekerja sebagai staf, jadi tidak bisa menjadi downline.
downline-join-taken = Anda sudah downline di jaringan lain.
downline-join-already = Anda sudah downline di jaringan ini.
downline-join-full = Jaringan ini sudah penuh. Hubungi upline Anda.
downline-join-gone = Upline yang mengundang Anda tidak bisa mengundang lagi. Minta tautan baru ke upline Anda.
downline-joined-sub = ✅ Anda sekarang downline dari <b>{ $upline }</b>. Isi dompet Anda sendiri dengan /deposit (QRIS) atau minta upline mengisinya, lalu jual dengan /beli. Saldo: /saldo.
downline-joined-upline = 👥 { $name } bergabung sebagai downline Anda. Lihat di /downline.
downline-line-via = { $indent }↳ <b>{ $name }</b> · via { $upline } · saldo { $balance } (ditahan { $held }) · { $sales } penjualan bulan ini · { $last }{ $state }
downline-card-via = Downline dari: { $upline } (harganya mengikuti harga upline ini ditambah markup-nya)
downline-may-invite = {" "}· boleh mengundang
downline-button-may-invite = ✅ Boleh mengundang
downline-button-no-invite = 🚫 Tidak boleh mengundang
downline-may-invite-you = ✅ Upline mengizinkan Anda mengundang downline sendiri. Buka /downline.
downline-no-invite-you = Upline tidak lagi mengizinkan Anda mengundang downline baru. Downline Anda yang ada tetap berjalan.
downline-not-allowed = Mengundang downline hanya untuk pemilik jaringan dan downline yang diizinkan upline-nya. Minta izin ke upline Anda.
downline-too-deep = Tidak bisa: jaringan paling dalam 3 tingkat di bawah pemilik, dan Anda sudah di tingkat terakhir. Downline baru harus diundang oleh upline Anda.
downline-has-downlines = Downline ini masih punya downline sendiri. Hapus atau pindahkan mereka dulu.
downline-own-title = 👥 <b>Downline Anda</b> ({ $count })
downline-own-line = • <b>{ $name }</b>{ $state }
downline-own-none = Belum ada downline. Undang dengan tombol di bawah: satu tautan untuk satu orang, berlaku 24 jam.
downline-own-markup = Markup Anda untuk downline: <b>{ $markup }</b> di atas harga Anda (itu komisi Anda per penjualan mereka). Ubah: <code>/downline markup 700</code> atau <code>/downline markup 2%</code>.
downline-own-markup-saved = ✅ Markup Anda untuk downline sekarang <b>{ $markup }</b>. Berlaku mulai pembelian mereka berikutnya.
downline-own-button-invite = ➕ Undang downline
downline-own-card = 👤 <b>{ $name }</b>{ $state }
    Bergabung { $since }
downline-own-invite = Tautan undangan downline Anda (untuk satu orang, berlaku sampai { $until }):
    { $link }
    Harganya: harga Anda ditambah markup Anda.
wallet-show = 👛 <b>Dompet Anda</b> (level { $level })
    Saldo: <b>{ $balance }</b>
    Ditahan (transaksi berjalan): { $held }
    Bisa dipakai: <b>{ $available }</b>
    Mutasi: /mutasi
wallet-credited-you = 👛 Dompet Anda bertambah <b>{ $amount }</b> ({ $reason }). Bisa dipakai: { $available }.
wallet-debited-you = 👛 Dompet Anda berkurang <b>{ $amount }</b> ({ $reason }). Bisa dipakai: { $available }.
wallet-only-downlines = Mutasi dompet hanya untuk downline. Saldo akun Anda ada di /saldo, transaksinya di /riwayat.
wallet-no-entries = Belum ada mutasi di dompet Anda.
wallet-no-more = Tidak ada mutasi yang lebih lama.
wallet-entries-title = 👛 <b>Mutasi dompet</b> (terbaru dulu)
wallet-entry = { $at } · { $sign }{ $amount } { $what }{ $note } → { $balance }
wallet-button-more = ⬇️ Lebih lama
wallet-button-csv = 📄 CSV
wallet-csv-caption = 📄 Mutasi dompet: { $count } baris, terlama dulu, dengan saldo setelah tiap baris.
wallet-entry-deposit = deposit
wallet-entry-adjust = oleh upline
wallet-entry-purchase = pembelian
wallet-entry-commission = komisi
wallet-entry-refund = pengembalian
wallet-entry-payout = penarikan
wallet-short = Saldo dompet kurang: harga { $price }, bisa dipakai { $available }. Isi dompet dengan /deposit, atau minta upline mengisinya.
wallet-suspended = ⏸ Penjualan Anda sedang dihentikan upline. Saldo dompet tetap aman.
wallet-upline-short = Saldo upline Anda sedang tidak cukup untuk transaksi ini. Dompet Anda tidak terpotong; upline sudah diberi tahu. Coba lagi nanti.
wallet-upline-short-owner = ⚠️ Downline { $name } tidak bisa membeli: saldo Anda kurang { $missing }. Isi saldo dengan /deposit.
wallet-deposit-credit = 👛 Masuk ke saldo Anda: <b>{ $credit }</b> (nominal dikurangi biaya QRIS), begitu pembayaran diterima.
wallet-deposit-line = Masuk ke saldo Anda: <b>{ $credit }</b>
wallet-deposit-on-paid = Dompet Anda bertambah begitu pembayaran diterima; bot akan mengabari Anda.
wallet-deposit-paid = ✅ <b>Deposit dibayar</b>: { $credit } masuk ke dompet Anda.
wallet-deposit-paid-balance = ✅ <b>Deposit dibayar</b>: { $credit } masuk ke dompet Anda. Saldo dompet sekarang { $balance }.
wallet-deposit-owner = 👛 { $name } deposit QRIS: { $amount } masuk ke dompetnya.
wallet-deposit-caption-paid = ✅ <b>LUNAS</b>: deposit ini sudah dibayar dan masuk ke dompet Anda.
wallet-deposit-credited-you = 👛 Dompet Anda bertambah <b>{ $amount }</b> (deposit <code>{ $ref }</code>). Saldo dompet sekarang { $balance }.
wallet-deposit-status-paid = Sudah dibayar, masuk ke dompet downline
wallet-deposit-of = ke dompet { $name }
# Penarikan dompet downline (/tarik, docs/wallets.md).
payout-only-downlines = Penarikan hanya untuk downline: uang dompetnya dikirim lewat upline. Untuk mengirim dari saldo Anda sendiri, pakai /transfer.
payout-choose-bank = 👛 <b>Tarik saldo dompet</b>. Pilih bank atau e-wallet tujuan:
payout-nothing = Belum ada yang bisa ditarik: dompet Anda bisa dipakai { $available }, penarikan minimal { $min }. Rinciannya: /saldo.
payout-ask-amount = Berapa yang ditarik? Bisa dipakai: { $available }. Minimal { $min }. Ketik dalam rupiah, misalnya 50000 atau 50rb.
payout-amount-too-small = Penarikan minimal { $min }. Ketik nominal lagi, atau /batal.
payout-amount-short = ❌ Saldo dompet yang bisa dipakai { $available }, kurang untuk { $amount }. Tidak ada yang ditahan. Ketik nominal yang lebih kecil, atau /batal.
payout-confirm =
    👛 <b>Tarik { $amount } dari dompet Anda</b>
    Ke: { $bank } <code>{ $number }</code> a.n. { $holder }

    Setelah Anda konfirmasi, { $amount } ditahan di dompet sampai upline mengonfirmasi transfernya. Biaya admin ditanggung upline.
payout-held = ✅ Permintaan dikirim ke upline. { $amount } ditahan di dompet Anda sampai upline mengonfirmasi (paling lama 24 jam; tanpa konfirmasi uangnya kembali). Bisa dipakai sekarang: { $available }. Ref: <code>{ $ref }</code>
payout-owner-request =
    👛 <b>{ $name }</b> minta tarik <b>{ $amount }</b> dari dompetnya ke { $bank } <code>{ $number }</code> a.n. { $holder }.
    Uangnya sudah ditahan di dompetnya. Buka transfer untuk melihat biaya lalu konfirmasi dengan saldo Anda (biaya admin dari saldo Anda; dompetnya dipotong { $amount } saja), atau tolak. Tanpa konfirmasi dalam 24 jam permintaan batal dan uangnya kembali ke dompetnya.
payout-owner-via-h2h = Diminta lewat H2H oleh sistem downline (ref_id <code>{ $ref }</code>).
payout-button-open = 💸 Buka transfer
payout-button-decline = 🚫 Tolak
payout-declined-owner = Permintaan ditolak: { $amount } kembali ke dompet { $name }.
payout-gone = Permintaan penarikan ini sudah tidak berlaku.
payout-confirm-only-owner = Hanya upline yang bisa mengonfirmasi transfer penarikan ini.
payout-success-you = ✅ Penarikan <b>{ $amount }</b> ke { $bank } <code>{ $number }</code> berhasil. Saldo dompet: { $balance } (bisa dipakai { $available }).
payout-failed-you = ❌ Penarikan { $amount } ke { $bank } <code>{ $number }</code> gagal; uangnya kembali ke dompet Anda. Saldo dompet: { $balance } (bisa dipakai { $available }).
payout-declined-you = 🚫 Upline menolak penarikan { $amount }; uangnya kembali ke dompet Anda. Saldo dompet: { $balance } (bisa dipakai { $available }).
payout-expired-you = ⌛ Upline tidak mengonfirmasi penarikan { $amount } dalam 24 jam, jadi dibatalkan; uangnya kembali ke dompet Anda. Saldo dompet: { $balance } (bisa dipakai { $available }).
wallet-upline-short-owner-refused = ⚠️ Downline { $name } tidak bisa membeli: penyedia menolak karena saldo Anda tidak cukup. Isi saldo dengan /deposit.
wallet-receipt-paid = 👛 Dibayar dari dompet Anda: { $price }. Sisa dompet: { $left }
wallet-receipt-back = 👛 { $price } kembali ke dompet Anda. Sisa dompet: { $left }
wallet-receipt-held = 👛 Dari dompet Anda: { $price }, ditahan sampai hasilnya jelas. Bisa dipakai: { $left }
audit-act-downline_invited = Downline diundang
audit-act-downline_joined = Downline bergabung
audit-act-downline_changed = Downline diubah
audit-act-downline_removed = Downline dihapus
audit-act-wallet_adjusted = Saldo dompet downline diubah
audit-act-pin_set = PIN transaksi dibuat
audit-act-pin_changed = PIN transaksi diganti
audit-act-pin_reset = PIN direset dengan API key
audit-act-pin_locked = Uang keluar dikunci (PIN salah 5 kali)
audit-act-pin_frozen = Uang keluar dibekukan ("Bukan saya")
audit-act-limit_changed = Batas PIN atau uang keluar diubah

## PIN transaksi (/pin, docs/pin.md)
cmd-pin = PIN transaksi dan batas uang keluar
pin-intro = 🔐 <b>PIN transaksi</b> melindungi saldo bila akun Telegram Anda diambil orang: transfer, undangan, ganti API key dan ubah saldo downline meminta PIN. Buat 6 angka yang tidak mudah ditebak.
pin-keypad-new = Ketik PIN baru (6 angka), lalu tekan ✅.
pin-keypad-repeat = Ketik PIN baru sekali lagi, lalu tekan ✅.
pin-keypad-act = 🔐 Masukkan PIN untuk: <b>{ $what }</b>, lalu tekan ✅.
pin-keypad-cancelled = PIN tidak dimasukkan. Tidak ada yang dijalankan.
pin-keypad-expired = Papan PIN ini sudah tidak berlaku. Ulangi dari awal.
pin-need-digits = PIN harus { $count } angka.
pin-weak = ⚠️ PIN itu mudah ditebak (123456, 654321, atau satu angka berulang). Pilih yang lain.
pin-mismatch = ⚠️ Kedua PIN tidak sama. Ketik PIN baru dari awal.
pin-saved = ✅ PIN tersimpan. Mulai sekarang transfer dan tindakan penting lain meminta PIN ini. Atur batas harian: /pin batas 5jt
pin-changed = ✅ PIN diganti.
pin-right = ✅ PIN benar.
pin-wrong = ❌ PIN salah. Sisa { $left } kali sebelum uang keluar dikunci.
pin-refused-locked = 🔒 PIN salah 5 kali. Transfer dan tindakan penting dikunci sampai { $until }. Penjualan yang tidak meminta PIN tetap jalan.
pin-refused-reset = 🔒 PIN baru direset dengan API key. Uang keluar ditahan sampai { $until } (24 jam) untuk keamanan.
pin-refused-frozen = 🧊 Uang keluar dibekukan karena "Bukan saya". Buat PIN dengan /pin, lalu masukkan untuk membuka.
pin-refused-limit = ⛔ Melebihi batas uang keluar harian { $limit }. Sisa hari ini: { $left }. Tidak ada yang dikirim.
confirm-over-limit-next = { $none ->
        [yes] Transfer lagi besok.
       *[no] Kirim paling banyak { $left } hari ini dengan /transfer, atau sisanya besok.
    } Batas diubah di /pin batas (kenaikan berlaku 24 jam kemudian).
pin-for-transfer = Transfer
pin-for-purchase = Pembelian { $amount } (di atas batas PIN)
pin-for-change = Ganti PIN
pin-for-settings = Ubah batas PIN
pin-for-key = Ganti atau hapus API key
pin-for-staff-invite = Undang staf
pin-for-downline-invite = Undang downline
pin-for-wallet = Ubah saldo dompet downline
pin-for-payout = Tarik saldo dompet
pin-for-member-reset = Reset PIN anggota
pin-for-staff-role = Ubah peran staf
pin-for-downline-change = Ubah downline
pin-off = tidak ada
pin-settings = 🔐 <b>PIN transaksi aktif.</b>
    Pembelian meminta PIN di atas: { $above }
    Batas uang keluar harian: { $limit }
pin-limit-waiting = Batas naik ke { $limit } berlaku mulai { $from }.
pin-settings-how = Ubah: <code>/pin beli 500rb</code> (pembelian di atas jumlah ini meminta PIN), <code>/pin batas 5jt</code> (uang keluar per hari), atau <code>off</code>. Lupa PIN? Kirim API key Anda lagi di chat ini.
pin-set-first = Buat PIN dulu dengan /pin.
pin-above-set = ✅ Pembelian di atas { $amount } kini meminta PIN.
pin-limit-set = ✅ Batas uang keluar harian: { $limit }, berlaku sekarang.
pin-limit-later = ⏳ Batas uang keluar harian { $limit } berlaku mulai { $from } (batas naik menunggu 24 jam). Sampai itu batas lama tetap berlaku.
pin-button-change = 🔁 Ganti PIN
pin-button-above = 🛒 Batas PIN pembelian
pin-button-limit = 💸 Batas uang keluar harian
pin-button-preset-off = 🚫 Matikan
pin-button-own = ✏️ Ketik sendiri
pin-type-own = Ketik { $what ->
    [beli] <code>/pin beli 750rb</code> (pembelian di atas jumlah ini meminta PIN)
   *[batas] <code>/pin batas 3jt</code> (uang keluar per hari)
}, dengan jumlah Anda.
pin-button-not-me = 🚫 Bukan saya
pin-button-reset-member = 🔐 Reset PIN
pin-not-you = Bukan Anda? Tekan "Bukan saya": uang keluar langsung dibekukan.
pin-told-set = 🔐 PIN transaksi dibuat.
pin-told-changed = 🔐 PIN transaksi diganti.
pin-told-reset = 🔐 PIN direset dengan API key. Uang keluar ditahan sampai { $until }.
pin-told-locked = 🔒 PIN salah 5 kali. Uang keluar dikunci sampai { $until }.
pin-told-above = 🔐 Pembelian meminta PIN di atas: { $amount }.
pin-told-limit = 🔐 Batas uang keluar harian diubah ke { $limit }{ $later ->
    [yes] , berlaku 24 jam lagi.
   *[no] .
}
pin-told-transfer = 💸 Transfer { $amount } ke { $bank } { $number } dikonfirmasi.
pin-told-wallet = 💸 Saldo dompet downline diubah { $amount }.
pin-told-staff-invite = 👥 Undangan staf dibuat.
pin-told-downline-invite = 👥 Undangan downline dibuat.
pin-told-staff-role = 👥 Peran staf { $name } diganti menjadi { $role }.
pin-told-downline = 👥 Downline { $name }: { $change ->
    [level] level menjadi { $level }
    [suspended] dihentikan
    [resumed] diaktifkan lagi
    [removed] dihapus
    [may-invite] boleh mengundang
   *[no-invite] tidak boleh mengundang
}.
pin-told-key = 🔑 API key { $what ->
    [removed] dihapus.
   *[replaced] diganti.
}
pin-frozen = 🧊 Uang keluar dibekukan. Masukkan PIN di tindakan berikutnya untuk membuka. Segera amankan akun Telegram Anda (Pengaturan > Perangkat).
pin-frozen-no-pin = 🧊 Uang keluar dibekukan. Buat PIN dengan /pin untuk membukanya. Segera amankan akun Telegram Anda (Pengaturan > Perangkat).
pin-reset-done = 🔐 API key Anda cocok: PIN dihapus. Uang keluar ditahan sampai { $until } (24 jam). Buat PIN baru dengan /pin.
pin-nag = 💡 PIN transaksi belum dibuat: siapa pun yang memegang Telegram Anda bisa mentransfer saldo. Buat dengan /pin.
pin-intro-member = 🔐 <b>PIN transaksi Anda sendiri</b>: penarikan dan undangan Anda meminta PIN ini, jadi orang yang memegang Telegram Anda tidak bisa memakainya. Buat 6 angka yang tidak mudah ditebak.
pin-saved-member = ✅ PIN tersimpan. Lupa PIN? Minta upline Anda meresetnya.
pin-member-settings = 🔐 <b>PIN transaksi Anda aktif.</b> Lupa PIN? Minta upline Anda meresetnya.
pin-told-locked-member = 🔒 { $name } salah memasukkan PIN 5 kali. Uang keluarnya dikunci sampai { $until }. Bila dia lupa PIN, buka kartunya dan tekan Reset PIN.
pin-member-reset = 🔐 PIN { $name } dihapus. Dia bisa membuat PIN baru dengan /pin.
pin-member-reset-you = 🔐 Upline Anda menghapus PIN Anda. Buat PIN baru dengan /pin.
pin-intro-staff = 🔐 <b>PIN transaksi Anda sendiri</b>. Saat ini tidak ada tindakan kasir atau admin toko yang meminta PIN (transfer, refund dan penarikan dikonfirmasi pemilik); PIN ini berlaku untuk tindakan yang nanti dilindungi. Buat 6 angka yang tidak mudah ditebak.
pin-saved-staff = ✅ PIN tersimpan. Lupa PIN? Minta pemilik meresetnya.
pin-staff-settings = 🔐 <b>PIN transaksi Anda aktif.</b> Lupa PIN? Minta pemilik meresetnya.
pin-staff-reset-you = 🔐 Pemilik menghapus PIN Anda. Buat PIN baru dengan /pin.
pin-new-account = 🆕 Rekening baru: belum pernah dibayar dari akun ini. Periksa nomor dan nama pemiliknya.

# H2H: a downline's own system over the provider's API (docs/h2h.md)
report-network-h2h = ↳ lewat H2H: { $sales } penjualan · omzet { $turnover } (sudah termasuk di atas)
cmd-h2h = Akses H2H untuk sistem Anda (downline)
downline-card-h2h-on = Akses H2H: aktif
downline-card-h2h-off = Akses H2H: nonaktif
downline-button-h2h-on = 🔌 Akses H2H: nyalakan
downline-button-h2h-off = 🔌 Akses H2H: matikan
audit-act-h2h_key_made = key H2H dibuat
audit-act-h2h_key_retired = key H2H lama dinonaktifkan
audit-act-h2h_ips_changed = daftar IP H2H diubah
pin-for-h2h-key = Buat key H2H baru
pin-for-h2h-ips = Ubah daftar IP H2H
h2h-not-downline = /h2h untuk downline: sistem mereka sendiri terhubung ke upline lewat H2H.
h2h-off = Akses H2H belum diaktifkan upline Anda. Minta upline menyalakan "Akses H2H" di kartu Anda (/downline).
h2h-on-you = 🔌 Upline Anda mengaktifkan akses H2H. Buka /h2h untuk membuat key dan mengatur IP.
h2h-off-you = 🔌 Upline Anda mematikan akses H2H: key Anda tidak berlaku lagi.
h2h-title = 🔌 <b>Akses H2H</b>
h2h-base-url = URL dasar untuk sistem Anda: <code>{ $url }</code>
h2h-base-url-none = URL dasar: belum ada (PUBLIC_URL bot upline belum diatur). Hubungi upline Anda.
h2h-key-none = Key: belum dibuat
h2h-key-active = Key: aktif, dibuat { $at } (hanya ditampilkan sekali saat dibuat)
h2h-ips = IP yang diizinkan: { $ips }
h2h-ips-none = IP yang diizinkan: belum ada (semua panggilan ditolak)
h2h-callback = URL callback: { $url }
h2h-callback-none = URL callback: belum diatur
h2h-how = Atur IP (maks. { $max }): <code>/h2h ip 203.0.113.9 198.51.100.7</code>
    Atur callback (https): <code>/h2h callback https://contoh.com/callback</code>
h2h-button-new-key = 🔑 Buat key baru
h2h-key-new = 🔑 Key H2H Anda (hanya ditampilkan sekali, simpan sekarang):
    <code>{ $key }</code>
h2h-key-new-replaced = 🔑 Key H2H baru Anda (hanya ditampilkan sekali, simpan sekarang):
    <code>{ $key }</code>
    Key lama sudah tidak berlaku.
h2h-key-next = Berikutnya: izinkan IP server Anda dengan <code>/h2h ip &lt;ip&gt;</code>, lalu atur URL callback dengan <code>/h2h callback &lt;url&gt;</code>.
h2h-usage = Perintah /h2h tidak dikenal: { $sub }. Pakai <code>/h2h</code>, <code>/h2h ip &lt;ip&gt;</code> atau <code>/h2h callback &lt;url&gt;</code>.
h2h-ips-bad = ❌ Bukan alamat IP: { $bad }. Daftar IP tidak diubah.
h2h-ips-too-many = ❌ Paling banyak { $max } IP. Daftar IP tidak diubah.
h2h-ips-saved = ✅ IP yang diizinkan: { $ips }
h2h-ips-cleared = ✅ Daftar IP dikosongkan: semua panggilan ditolak sampai ada IP.
h2h-callback-bad = ❌ URL callback harus https (contoh: https://contoh.com/callback). Tidak diubah.
h2h-callback-saved = ✅ URL callback: { $url }
h2h-callback-cleared = ✅ URL callback dihapus.
