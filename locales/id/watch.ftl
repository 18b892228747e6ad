## Pemantau status (pesan otomatis saat status transaksi berubah) dan /status

watch-success = ✅ <b>Transaksi berhasil</b>
watch-failed = ❌ <b>Transaksi gagal</b>. Alasannya ada di keterangan di bawah.
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
