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
bill-line-bill = Tagihan: { $amount }
bill-line-admin = Biaya admin: { $amount }
bill-line-total = <b>Total tagihan pelanggan: { $amount }</b>
bill-line-cost = Harga modal Anda (dipotong dari saldo): <b>{ $amount }</b>

bill-low-balance = Saldo Anda { $balance }, sedangkan tagihan ini memotong { $cost }. Isi saldo lewat /deposit, lalu tekan Coba lagi (tagihan akan dicek ulang).
bill-low-balance-short = Isi saldo lewat /deposit, lalu tekan Coba lagi (tagihan akan dicek ulang).
