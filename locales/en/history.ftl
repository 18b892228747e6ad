## Transaction history (/history)
history-title = 📜 <b>Transaction history</b> (page { $page } of { $pages })
history-empty = 📜 No transactions yet. Start from /menu.
history-tap-hint = Tap a number to see the details.
history-detail-title = 🧾 <b>Transaction details</b>
history-updated = Updated
history-cost = Cost price
history-credited = Credited
history-back = ⬅️ History
