# Peringatan saldo menipis (/alerts) dan pesan peringatannya.

alerts-status-off = 🔔 <b>Peringatan saldo</b>: <b>mati</b>.
alerts-status-on = 🔔 <b>Peringatan saldo</b>: aktif, Anda diberi tahu saat saldo di bawah <b>{ $threshold }</b>.
alerts-ask = Ketik batas saldo baru, misalnya <code>100000</code>, <code>100rb</code> atau <code>1jt</code>.
alerts-button-off = 🔕 Matikan peringatan
alerts-invalid = Itu bukan nominal. Ketik angka seperti <code>100000</code>, <code>100rb</code> atau <code>1,5jt</code>, atau /batal.
alerts-out-of-range = Batas saldo harus antara { $min } dan { $max }. Ketik lagi, atau /batal.
alerts-turned-off = 🔕 Peringatan saldo dimatikan. Aktifkan lagi kapan saja dengan /alerts.
alerts-set =
    ✅ Peringatan saldo aktif: Anda diberi tahu sekali saat saldo turun di bawah <b>{ $threshold }</b>.
    Saldo diperiksa setelah setiap transaksi dan secara berkala.
alert-low =
    ⚠️ <b>Saldo menipis</b>
    Saldo Anda sekarang <b>{ $balance }</b>, di bawah batas peringatan { $threshold }.
    Isi saldo dengan /deposit. Atur peringatan: /alerts
