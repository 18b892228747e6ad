# Admin commands: /admin, /broadcast (/siaran), /ceksaldo (/balances). Only for ADMIN_IDS.

admin-help =
    🛠 <b>Admin commands</b>
    /broadcast: send a message (text, or a photo with a caption) to every linked chat
    /balances: send every linked chat its current balance, with a warning where it is under its threshold
admin-unavailable = This feature is not running in this bot.
admin-round-busy = ⏳ A balance round is running. Wait for its summary.
admin-round-none = No chat is linked yet.
admin-round-started = ⏳ Checking the balance of { $count } chats. The summary follows when done.
admin-round-balance = 💰 <b>Your balance</b>: { $balance }
admin-round-under = ⚠️ Below your alert threshold ({ $threshold }). Top up with /deposit.
admin-round-summary =
    ✅ <b>Balance round finished</b>
    Chats: { $total }
    Sent: { $sent } (under threshold: { $under })
    Failed: { $failed }
    Blocked the bot: { $blocked }

broadcast-ask =
    📣 <b>Broadcast</b>
    Send the message to broadcast: text, or one photo with a caption. Formatting (bold, links…) is kept.
broadcast-unsupported = Send text or one photo, or /cancel.
broadcast-button-send = 📣 Send
broadcast-confirm = ☝️ The preview above is exactly what recipients get. Send it to <b>{ $count }</b> chats?
broadcast-draft-gone = This broadcast draft is no longer valid. Start again with /broadcast.
broadcast-no-recipients = No chat is linked yet to receive a broadcast.
broadcast-started = 📣 Broadcast started to { $count } chats.
broadcast-cancelled = ❌ Broadcast cancelled. Nothing was sent.
broadcast-busy = ⏳ A broadcast is still running (sent { $sent }, remaining { $remaining }). Wait until it finishes.
broadcast-progress = 📣 Broadcast running… Sent: { $sent } · Failed: { $failed } · Blocked: { $blocked } · Remaining: { $remaining }
broadcast-progress-done = 📣 Broadcast finished. Sent: { $sent } · Failed: { $failed } · Blocked: { $blocked } · Uncertain: { $uncertain }
broadcast-summary =
    ✅ Broadcast finished: { $sent } sent, { $failed } failed, { $blocked } blocked the bot (not messaged again).
    { $uncertain ->
        [0] Every chat was processed.
       *[other] { $uncertain } chat(s) were being sent to when the bot stopped abruptly; not sent again to avoid duplicates.
    }
