# Transfer ke bank atau e-wallet (/transfer).

transfer-choose-bank = 💸 <b>Transfer</b>. Pilih bank atau e-wallet tujuan:
transfer-choice-bank = 🏦 { $name }
transfer-choice-ewallet = 👛 { $name } (e-wallet)
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
    ✅ <b>Rekening ditemukan</b>
    Tujuan: { $bank }
    Nomor: <code>{ $number }</code>
    Atas nama: <b>{ $holder }</b>
transfer-ask-amount = Berapa nominal transfernya? Ketik dalam rupiah, misalnya 50000, 50.000, 50rb atau 1jt. Minimal { $min }.
transfer-amount-invalid = Nominal tidak dikenali. Ketik dalam rupiah bulat, misalnya 50000, 50.000, 50rb atau 1jt.
transfer-amount-too-small = Nominal transfer minimal { $min }. Ketik nominal lagi.
transfer-ask-note = Tambahkan catatan untuk transfer ini (maksimal { $max } karakter), atau tekan Lewati.
transfer-button-skip = ⏭ Lewati
transfer-note-too-long = Catatan terlalu panjang ({ $length } karakter, maksimal { $max }). Ketik yang lebih pendek, atau tekan Lewati.
transfer-confirm =
    💸 <b>Transfer ke { $bank }</b>
    Nomor tujuan: <code>{ $number }</code>
    Atas nama: <b>{ $holder }</b>
    Nominal: { $amount }
transfer-fee-estimate =
    Biaya: ≈ { $fee } (perkiraan dari transfer Anda sebelumnya)
    Perkiraan total: ≈ { $total }
transfer-fee-unknown = Biaya: ditambahkan oleh penyedia di atas nominal; jumlah pastinya tampil di struk.
transfer-confirm-note = Catatan: { $note }
receipt-holder = Atas nama
