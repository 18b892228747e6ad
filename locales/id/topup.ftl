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
prices-available = ✅ Tersedia
prices-empty = ⛔ Stok kosong (tidak bisa dibeli sekarang)
prices-search-title = 🔎 Hasil untuk "<b>{ $query }</b>": { $count } produk
prices-search-none = 🔎 Tidak ada produk yang cocok dengan "{ $query }". Coba kata lain (mis. <code>tsel 10</code>, <code>pln 50</code>) atau lihat semua kategori.
prices-search-narrow = Terlalu banyak hasil: tambahkan kata lain untuk mempersempit pencarian.
prices-bills-title = 🧾 <b>Layanan tagihan (pascabayar)</b>. Biaya admin per lembar tagihan:
prices-bill-line = • <b>{ $name }</b> (<code>{ $code }</code>): admin { $admin }
prices-bill-line-empty = • ⛔ <b>{ $name }</b> (<code>{ $code }</code>): admin { $admin }, sedang gangguan
prices-bills-none = Belum ada layanan tagihan.
prices-refreshed = 🔄 Daftar harga diperbarui.
prices-refreshed-all = 🔄 Semua daftar harga yang tersimpan sudah dihapus; permintaan berikutnya mengambil harga terbaru.
prices-list-changed = Daftar harga sudah berubah. Silakan pilih lagi.

## Pembelian
topup-product-line = 🛒 <b>{ $name }</b> (<code>{ $code }</code>): <b>{ $price }</b>
topup-note-line = ℹ️ Catatan: { $note }
topup-unknown-code = ❓ Produk dengan kode <code>{ $code }</code> tidak ditemukan. Lihat kode produk di /harga, atau cari dengan kata, mis. <code>/harga tsel 10</code>.
topup-empty = ⛔ <b>{ $name }</b> (<code>{ $code }</code>) sedang kosong, jadi tidak bisa dibeli sekarang. Coba produk lain di /harga.
topup-empty-alert = ⛔ { $name } sedang kosong, tidak bisa dibeli sekarang.
topup-confirm-product = Produk
topup-confirm-code = Kode
topup-confirm-target = Tujuan
topup-confirm-price = Harga
topup-price-changed = 💱 Harganya berubah: sekarang <b>{ $price }</b> (tadi { $old }). Tekan "Coba lagi" untuk membeli dengan harga baru.
topup-now-empty = ⛔ { $name } sekarang sedang kosong.

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
target-pln-invalid = ❗ Nomor meter/ID pelanggan PLN berisi 10–13 angka (nomor meter 11–12 digit, ID pelanggan 12 digit). Kirim lagi.
target-game-server-invalid = ❗ Kirim ID dan server, mis. <code>12345678 1234</code>, <code>12345678(1234)</code> atau <code>12345678|1234</code>.
target-text-length = ❗ Tujuan harus { $min }–{ $max } karakter. Kirim lagi.
target-text-chars = ❗ Tujuan hanya boleh berisi huruf, angka, spasi dan tanda . - _ ( ) # @. Kirim lagi.
