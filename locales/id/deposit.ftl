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

deposit-button-pay = 💳 Bayar
deposit-button-cancel = 🚫 Batalkan deposit
deposit-button-release = ⚡ Cairkan sekarang
deposit-button-release-confirm = ⚡ Ya, cairkan
deposit-button-release-later = Nanti saja

deposit-cancelled = 🚫 <b>Deposit dibatalkan.</b> Jangan membayar deposit ini lagi.
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
