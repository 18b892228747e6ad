# Bahasa Indonesia: bahasa utama bot. Setiap teks untuk pengguna ada di sini (dan di en.ftl).
# Nilai uang dan waktu sudah diformat oleh kode (Rp10.000, WIB) sebelum masuk ke sini.

## Umum
sandbox-banner = 🧪 <b>MODE SANDBOX</b>: bukan uang sungguhan.
error-generic = ⚠️ Maaf, terjadi kesalahan. Coba lagi sebentar lagi.
button-expired = Tombol ini sudah tidak berlaku. Buka /menu untuk mulai lagi.
rate-limited = ⏳ Terlalu cepat. Tunggu sebentar lalu coba lagi.
coming-soon = 🚧 Fitur ini segera hadir.
private-only = 🔒 Perintah ini hanya bisa dipakai di chat pribadi dengan bot.
not-linked = 🔑 Akun Anda belum terhubung. Kirim /start lalu tempelkan api key dari dashboard penyedia.
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

## Start dan menghubungkan api key
welcome =
    👋 Halo, { $name }!

    Bot ini membantu Anda berjualan pulsa, paket data, token listrik, voucher game, bayar tagihan, transfer dan deposit saldo, langsung dari Telegram, memakai akun reseller Anda sendiri.
welcome-ask-key =
    🔑 Untuk mulai, kirim <b>api key</b> Anda (ambil dari dashboard penyedia, menu API/H2H).
    Pesan berisi api key akan langsung dihapus dari chat ini.
welcome-linked =
    ✅ Akun Anda sudah terhubung (api key { $mask }).
    Buka /menu untuk mulai bertransaksi, atau /kunci untuk mengganti api key.
key-ask = 🔑 Kirim api key yang baru. Pesannya akan langsung dihapus. Ketik /batal untuk batal.
key-checking = 🔍 Memeriksa api key…
key-linked =
    ✅ <b>Api key terhubung</b>
    Nama: { $name }
    Saldo: { $balance }
    Api key: <code>{ $mask }</code>

    Buka /menu untuk mulai.
key-rejected =
    ❌ Api key tidak diterima penyedia: { $message }

    Periksa lagi api key di dashboard penyedia. Jika pesan di atas menyebut alamat IP, daftarkan IP itu di whitelist akun Anda. Lalu kirim api key lagi.
key-check-failed = 🌐 Api key belum bisa diperiksa karena server penyedia tidak bisa dihubungi. Kirim lagi sebentar lagi.
key-invalid-format = Itu tidak terlihat seperti api key (satu baris tanpa spasi). Kirim api key dari dashboard penyedia, atau /batal.
key-not-deleted = ⚠️ Bot tidak bisa menghapus pesan berisi api key. Hapus sendiri pesan itu.
key-in-group =
    🚨 Jangan kirim api key di grup! Pesan itu { $deleted ->
        [yes] sudah dihapus
       *[no] tidak bisa dihapus oleh bot (hapus sendiri)
    }, tapi anggap api key tersebut sudah bocor: buat api key baru di dashboard penyedia, lalu hubungkan lewat chat pribadi dengan bot.
logout-done = 👋 Api key sudah dihapus dari bot. Kirim /start untuk menghubungkan lagi.
logout-none = Tidak ada api key yang terhubung.

## Saldo
balance-show =
    💰 <b>Saldo</b>
    Nama: { $name }
    Saldo: <b>{ $balance }</b>
    Status akun: { $status }
    Api key: <code>{ $mask }</code>

## Bahasa
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
help =
    ❓ <b>Bantuan</b>
    /menu: menu utama
    /saldo: cek saldo
    /harga: daftar harga (contoh: <code>/harga tsel 10</code>)
    /beli: beli pulsa, data, token, voucher (cepat: <code>/beli KODE TUJUAN</code>)
    /tagihan: cek dan bayar tagihan
    /transfer: transfer ke bank atau e-wallet
    /deposit: isi saldo
    /status: cek status transaksi (<code>/status ID</code>)
    /riwayat: riwayat transaksi
    /alerts: peringatan saldo menipis
    /bahasa: ganti bahasa
    /kunci: ganti api key
    /keluar: hapus api key dari bot
    /batal: batalkan proses yang berjalan

## Daftar perintah (setMyCommands)
cmd-start = Mulai dan hubungkan api key
cmd-menu = Menu utama
cmd-saldo = Cek saldo
cmd-harga = Daftar harga
cmd-beli = Beli produk
cmd-tagihan = Cek dan bayar tagihan
cmd-transfer = Transfer bank atau e-wallet
cmd-deposit = Isi saldo
cmd-status = Cek status transaksi
cmd-riwayat = Riwayat transaksi
cmd-alerts = Peringatan saldo
cmd-bahasa = Ganti bahasa
cmd-kunci = Ganti api key
cmd-keluar = Hapus api key
cmd-batal = Batalkan proses
cmd-bantuan = Bantuan

## Langkah-langkah alur
flow-send-text = Kirim jawaban berupa teks, atau tekan tombol.
flow-search-hint = 🔎 Ketik kata kunci untuk mencari, atau pilih dari daftar.
flow-tap-a-button = Pilih salah satu tombol di atas, atau /batal.
flow-search-none = Tidak ada yang cocok dengan "{ $query }". Coba kata lain.

## Konfirmasi dan hasil transaksi
button-confirm = ✅ Konfirmasi
button-check-status = 🔄 Cek status
button-retry = 🔁 Coba lagi
confirm-title = 🧾 <b>Periksa sebelum konfirmasi</b>
confirm-expired = Layar konfirmasi ini sudah kedaluwarsa (lebih dari 10 menit). Silakan mulai lagi.
confirm-already = Transaksi ini sudah diproses.
confirm-sending = Memproses…
money-rejected = ❌ <b>Ditolak penyedia</b>: { $message }
money-pending = ⏳ Sedang diproses. Bot akan mengabari Anda saat statusnya berubah.
money-unknown =
    ❓ <b>Hasil belum diketahui</b> karena server penyedia tidak menjawab dengan jelas. Saldo mungkin sudah terpotong.
    Jangan ulangi transaksi ini. Bot akan terus memeriksanya; cek juga dengan <code>/status { $ref }</code>.
retry-start-again = Silakan mulai lagi dari /menu.

status-draft = Menunggu konfirmasi
status-sending = Dikirim
status-unknown = Belum diketahui
status-pending = Diproses
status-processing = Diproses penyedia
status-success = Berhasil
status-failed = Gagal
status-expired = Kedaluwarsa
status-cancel = Dibatalkan

kind-prepaid = Pembelian
kind-postpaid = Pembayaran tagihan
kind-transfer = Transfer
kind-deposit = Deposit

receipt-target = Tujuan
receipt-customer = Nama pelanggan
receipt-amount = Nominal
receipt-fee = Biaya
receipt-total = Total
receipt-sn = SN/Token
receipt-status = Status
receipt-message = Keterangan
receipt-ref = ID referensi
receipt-upstream-id = ID penyedia
receipt-created = Waktu
