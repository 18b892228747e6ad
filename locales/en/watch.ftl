## Status watcher (automatic messages when a transaction changes) and /status

watch-success = ✅ <b>Transaction successful</b>
watch-failed = ❌ <b>Transaction failed</b>. The reason is in the note below.
watch-deposit-success = ✅ <b>Deposit received</b>: { $credited } was added to your balance.
watch-deposit-failed = ❌ <b>Deposit failed</b>. Nothing was added to your balance.
watch-deposit-expired = ⌛ <b>Deposit expired</b>: no payment was received. Make a new one with /deposit if needed.
watch-deposit-cancel = 🚫 <b>Deposit cancelled</b>. Do not pay these deposit instructions.
watch-deposit-processing =
    💳 <b>Deposit payment received</b>.
    The funds reach your balance on the next working day (H+1), or can be released now (instant) for a handling fee.
watch-unknown =
    ❓ <b>Outcome unknown</b>: the bot stopped while sending this to the provider. Your balance may have been charged.
    Do not repeat this transaction. The bot keeps checking it; you can also check with <code>/status { $ref }</code>.
watch-gave-up =
    ⏳ <b>Still processing</b> after { $hours } hours. The bot has stopped checking it automatically.
    Check any time with <code>/status { $ref }</code>, or contact the provider with the ids below.
watch-gave-up-unknown =
    ❓ <b>The provider does not know this transaction</b> after { $hours } hours, so its outcome is still unknown. The bot has stopped checking it automatically.
    Look up reference id <code>{ $ref }</code> in the provider's dashboard before repeating it, so it is not paid twice.

watch-caption-success = ✅ <b>PAID</b>: this deposit was paid and credited.
watch-caption-processing = ✅ <b>PAID</b>: the funds reach your balance on the next working day (H+1).
watch-caption-failed = ❌ <b>FAILED</b>: this deposit failed.
watch-caption-expired = ⌛ <b>EXPIRED</b>: this QRIS can no longer be paid.
watch-caption-cancel = 🚫 <b>CANCELLED</b>: do not pay this QRIS.
watch-caption-unknown = ❓ <b>Unknown</b>: check with /status.
watch-caption-gaveup = ⏳ <b>Still processing</b>: check with /status.

## /status
check-not-found = 🔎 No transaction <code>{ $id }</code> in this chat. Check the id (reference id or provider id), or see /history.
check-choose = 🔎 Several transactions have the id <code>{ $id }</code>. Which one?
check-open-title = 🔎 <b>Transactions still processing</b>. Choose one to check its status:
check-open-more = …and { $count } more. Check others with <code>/status ID</code>.
check-open-none =
    ✅ Nothing is processing right now.
    Check any transaction with <code>/status ID</code>, or see /history.
check-upstream-error = 🌐 The provider could not be asked for the latest status. Above is the last known status; try again shortly.
check-not-at-provider = ❓ The provider does not know this transaction yet. Do not repeat it; check again later or look up reference id <code>{ $ref }</code> in the provider's dashboard.
check-still-open = ⏳ Still processing. The bot will tell you when the status changes.
check-gave-up-note = ℹ️ The bot no longer checks this one automatically; press 🔄 to check again.
check-callback-status = Status: { $status }
button-refresh-status = 🔄 Refresh status
