## Riwayat transaksi (/riwayat)
history-title = 📜 <b>Riwayat transaksi</b> (halaman { $page } dari { $pages })
history-empty = 📜 Belum ada transaksi. Mulai dari /menu.
history-tap-hint = Ketuk nomor untuk melihat detail.
history-detail-title = 🧾 <b>Detail transaksi</b>
history-updated = Diperbarui
history-cost = Harga modal
history-credited = Masuk ke saldo
history-back = ⬅️ Riwayat
