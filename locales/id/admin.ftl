# Perintah admin: /admin, /broadcast (/siaran), /ceksaldo (/balances). Hanya untuk ADMIN_IDS.

admin-help =
    🛠 <b>Perintah admin</b>
    /broadcast: kirim pesan (teks atau foto dengan keterangan) ke semua chat yang terhubung
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

broadcast-ask =
    📣 <b>Broadcast</b>
    Kirim pesan yang akan disiarkan: teks, atau satu foto dengan keterangan. Format (tebal, tautan…) ikut terkirim.
broadcast-unsupported = Kirim teks atau satu foto, atau /batal.
broadcast-button-send = 📣 Kirim
broadcast-confirm = ☝️ Pratinjau di atas persis seperti yang diterima. Kirim ke <b>{ $count }</b> chat?
broadcast-draft-gone = Draf broadcast ini sudah tidak berlaku. Mulai lagi dengan /broadcast.
broadcast-no-recipients = Belum ada chat yang terhubung untuk menerima broadcast.
broadcast-started = 📣 Broadcast dimulai ke { $count } chat.
broadcast-cancelled = ❌ Broadcast dibatalkan. Tidak ada yang dikirim.
broadcast-busy = ⏳ Sebuah broadcast masih berjalan (terkirim { $sent }, sisa { $remaining }). Tunggu sampai selesai.
broadcast-progress = 📣 Broadcast berjalan… Terkirim: { $sent } · Gagal: { $failed } · Memblokir: { $blocked } · Sisa: { $remaining }
broadcast-progress-done = 📣 Broadcast selesai. Terkirim: { $sent } · Gagal: { $failed } · Memblokir: { $blocked } · Tidak pasti: { $uncertain }
broadcast-summary =
    ✅ Broadcast selesai: { $sent } terkirim, { $failed } gagal, { $blocked } memblokir bot (tidak dikirimi lagi).
    { $uncertain ->
        [0] Semua chat sudah diproses.
       *[other] { $uncertain } chat sedang dikirimi saat bot berhenti mendadak; tidak dikirim ulang agar tidak dobel.
    }
