## Deposit (/deposit)
deposit-choose-method = 🏦 <b>Top up your balance</b>. Choose a payment method:
deposit-method-line = • <b>{ $method }</b>: { $limits }, fee { $fee }
deposit-no-methods = No deposit method is active right now. Please try again later.
deposit-fee-free = free
deposit-ask-amount =
    💵 How much do you want to deposit with <b>{ $method }</b>?
    Minimum { $min }, maximum { $max }. E.g. <code>50000</code>, <code>50.000</code>, <code>50rb</code>, <code>1jt</code>.
deposit-amount-invalid = That amount was not understood. Write whole rupiah, e.g. <code>50000</code>, <code>50rb</code> or <code>1jt</code>.
deposit-amount-out-of-range = That amount is outside this method's limits: minimum { $min }, maximum { $max }. Type another amount.

deposit-confirm-method = Method: <b>{ $method }</b>
deposit-confirm-fee = Estimated fee: { $fee } ({ $rule })
deposit-confirm-credited = Estimated amount credited: <b>{ $credited }</b>
deposit-confirm-bank-addon = ℹ️ The provider adds a small unique code to the transfer amount; the exact amount is shown after you confirm.
deposit-confirm-note = The fee and credited amount above are estimates; the provider's exact figures are shown after you confirm.

deposit-instructions-title = 🏦 <b>{ $method } deposit</b>
deposit-qris-howto = Scan this QR with any e-wallet or mobile banking app that supports QRIS.
deposit-va-howto = Pay to this Virtual Account number (tap the number to copy it).
deposit-bank-howto = Transfer to this bank account (tap the number to copy it).
deposit-ewallet-howto = Press the <b>Pay</b> button below to pay in your e-wallet app.
deposit-line-bank = Bank: <b>{ $bank }</b>
deposit-line-va = VA number: <code>{ $va }</code>
deposit-line-account = Account number: <code>{ $account }</code>
deposit-line-holder = Account holder: { $holder }
deposit-line-transfer-exact = Amount to transfer: <code>{ $digits }</code> (<b>{ $amount }</b>)
deposit-bank-exact-warning = ⚠️ Transfer <b>EXACTLY { $amount }</b> (the unique code { $extra } is included); do not round it, so the deposit is matched automatically.
deposit-line-amount = Amount: <b>{ $amount }</b>
deposit-line-fee = Fee: { $fee }
deposit-line-credited = Credited to balance: <b>{ $credited }</b>
deposit-line-expires = Pay before: <b>{ $time }</b>
deposit-line-ref = Reference id: <code>{ $ref }</code>
deposit-credit-on-success = Your balance grows once the payment succeeds; the bot will tell you.

deposit-button-pay = 💳 Pay
deposit-button-cancel = 🚫 Cancel deposit
deposit-button-release = ⚡ Release now
deposit-button-release-confirm = ⚡ Yes, release
deposit-button-release-later = Not now

deposit-cancelled = 🚫 <b>Deposit cancelled.</b> Do not pay this deposit any more.
deposit-cancel-not-yet = The provider has not registered this deposit yet, so it cannot be cancelled. Check its status first.
deposit-cancel-refused = ℹ️ Deposit <code>{ $ref }</code> can no longer be cancelled. Current status: { $status }.
deposit-processing-hint = The payment was received. It reaches your balance on the next working day, or press ⚡ Release now (for a handling fee).

deposit-release-already = A release of this deposit was already requested.
deposit-release-unavailable = This deposit cannot be released now. Status: { $status }.
deposit-release-preview =
    ⚡ <b>Release this deposit now?</b>
    Reference id: <code>{ $ref }</code>
    Amount: { $amount }
    Handling fee: { $handling }
    Total fee: { $total }
    Credited to balance: <b>{ $received }</b>

    Without a release, the money reaches your balance on the next working day with no handling fee.
deposit-release-done = ✅ <b>Deposit released.</b> { $received } was credited to your balance (total fee { $total }).
deposit-release-requested = ⏳ Release requested. Status: { $status }. The bot will tell you when it changes.
deposit-release-unknown =
    ❓ <b>The release outcome is unknown</b>: the provider's server did not answer clearly. Do not ask for a release again.
    Check with <code>/status { $ref }</code>.
