# Transfer to a bank or e-wallet (/transfer).

transfer-choose-bank = 💸 <b>Transfer</b>. Pick the destination bank or e-wallet:
transfer-choice-bank = 🏦 { $name }
transfer-choice-ewallet = 👛 { $name } (e-wallet)
transfer-no-banks = The provider offers no destination banks or e-wallets right now. Please try again later.
transfer-dest-bank = { $name }
transfer-dest-ewallet = { $name } (e-wallet)
transfer-ask-account = { $type ->
    [ewallet] Send the destination <b>{ $bank }</b> number (the phone number registered to the e-wallet).
   *[bank] Send the destination <b>{ $bank }</b> account number.
}
transfer-account-bad-format = An account number has 5–20 digits (spaces and dashes are fine). Type the number again.
transfer-account-invalid = ❌ Number <code>{ $number }</code> at { $bank } was not found or is not valid. Check it and type the correct number.
transfer-account-processing = ⏳ Number <code>{ $number }</code> at { $bank } is being checked by the provider. Try again shortly with the button below, or type another number.
transfer-account-check-failed = Number <code>{ $number }</code> at { $bank } could not be checked yet. Press the button below to check again, or type another number.
transfer-button-check-again = 🔄 Check again
transfer-account-found =
    ✅ <b>Account found</b>
    Destination: { $bank }
    Number: <code>{ $number }</code>
    Holder: <b>{ $holder }</b>
transfer-ask-amount = How much do you want to transfer? Type it in rupiah, e.g. 50000, 50.000, 50rb or 1jt. Minimum { $min }.
transfer-amount-invalid = That amount was not understood. Type whole rupiah, e.g. 50000, 50.000, 50rb or 1jt.
transfer-amount-too-small = The minimum transfer is { $min }. Type the amount again.
transfer-ask-note = Add a note to this transfer (up to { $max } characters), or press Skip.
transfer-button-skip = ⏭ Skip
transfer-note-too-long = The note is too long ({ $length } characters, up to { $max }). Type a shorter one, or press Skip.
transfer-confirm =
    💸 <b>Transfer to { $bank }</b>
    Destination number: <code>{ $number }</code>
    Holder: <b>{ $holder }</b>
    Amount: { $amount }
transfer-fee-estimate =
    Fee: ≈ { $fee } (estimated from your last transfer)
    Estimated total: ≈ { $total }
transfer-fee-unknown = Fee: the provider's fee is added to the amount; the exact fee is shown on the receipt.
transfer-confirm-note = Note: { $note }
receipt-holder = Account holder
