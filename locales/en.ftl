# English: the bot's second language. Every user-facing text lives here (and in id.ftl).
# Money and times are already formatted by code (Rp10.000, WIB) before they get here.

## General
sandbox-banner = 🧪 <b>SANDBOX MODE</b>: not real money.
error-generic = ⚠️ Sorry, something went wrong. Please try again shortly.
button-expired = This button is no longer valid. Open /menu to start again.
rate-limited = ⏳ Too fast. Please wait a moment and try again.
coming-soon = 🚧 This feature is coming soon.
private-only = 🔒 This command only works in a private chat with the bot.
not-linked = 🔑 Your account is not linked yet. Send /start and paste the api key from your provider's dashboard.
cancelled = ❌ Cancelled.
nothing-to-cancel = Nothing is running right now.
button-cancel = ❌ Cancel
button-back = ⬅️ Back
button-next = Next ➡️
button-prev = ⬅️ Previous
button-menu = 🏠 Menu
upstream-unavailable = 🌐 The provider's server cannot be reached right now. Please try again shortly.
upstream-unexpected = 🌐 The provider's server sent an answer the bot does not understand. Please try again shortly.
upstream-rejected = ❗ The provider refused: { $message }
step-timeout = ⌛ Time is up (10 minutes without an answer). The flow has ended; please start again.

## Start and linking an api key
welcome =
    👋 Hello, { $name }!

    This bot helps you sell phone credit, data packages, electricity tokens, game vouchers, pay bills, transfer money and top up your balance, right from Telegram, with your own reseller account.
welcome-ask-key =
    🔑 To begin, send your <b>api key</b> (from your provider's dashboard, API/H2H menu).
    The message with the api key is deleted from this chat at once.
welcome-linked =
    ✅ Your account is linked (api key { $mask }).
    Open /menu to start, or /key to replace the api key.
key-ask = 🔑 Send the new api key. The message is deleted at once. Type /cancel to stop.
key-checking = 🔍 Checking the api key…
key-linked =
    ✅ <b>Api key linked</b>
    Name: { $name }
    Balance: { $balance }
    Api key: <code>{ $mask }</code>

    Open /menu to start.
key-rejected =
    ❌ The provider did not accept the api key: { $message }

    Check the api key in your provider's dashboard. If the message above names an IP address, add that IP to your account's whitelist. Then send the api key again.
key-check-failed = 🌐 The api key could not be checked because the provider's server cannot be reached. Send it again shortly.
key-invalid-format = That does not look like an api key (one line, no spaces). Send the api key from your provider's dashboard, or /cancel.
key-not-deleted = ⚠️ The bot could not delete the message with your api key. Please delete it yourself.
key-in-group =
    🚨 Never send an api key in a group! The message { $deleted ->
        [yes] was deleted
       *[no] could not be deleted by the bot (delete it yourself)
    }, but treat that api key as leaked: create a new one in your provider's dashboard and link it in a private chat with the bot.
logout-done = 👋 The api key was removed from the bot. Send /start to link again.
logout-none = No api key is linked.

## Balance
balance-show =
    💰 <b>Balance</b>
    Name: { $name }
    Balance: <b>{ $balance }</b>
    Account status: { $status }
    Api key: <code>{ $mask }</code>

## Language
language-choose = 🌐 Choose a language:
language-set = ✅ Language switched to English.

## Menu and help
menu-title = 🏠 <b>Main menu</b>. What would you like to do?
menu-prices = 📋 Prices
menu-topup = 📱 Buy
menu-bill = 🧾 Bills
menu-transfer = 💸 Transfer
menu-deposit = 🏦 Deposit
menu-balance = 💰 Balance
menu-history = 📜 History
menu-status = 🔎 Check status
menu-alerts = 🔔 Balance alerts
menu-language = 🌐 Language
menu-help = ❓ Help
help =
    ❓ <b>Help</b>
    /menu: main menu
    /balance: check balance
    /prices: price list (e.g. <code>/prices tsel 10</code>)
    /topup: buy credit, data, tokens, vouchers (fast: <code>/topup CODE TARGET</code>)
    /bill: check and pay bills
    /transfer: transfer to a bank or e-wallet
    /deposit: top up your balance
    /status: check a transaction (<code>/status ID</code>)
    /history: transaction history
    /alerts: low-balance alerts
    /language: switch language
    /key: replace the api key
    /logout: remove the api key from the bot
    /cancel: cancel the running flow

## Command list (setMyCommands)
cmd-start = Start and link your api key
cmd-menu = Main menu
cmd-saldo = Check balance
cmd-harga = Price list
cmd-beli = Buy a product
cmd-tagihan = Check and pay bills
cmd-transfer = Bank or e-wallet transfer
cmd-deposit = Top up balance
cmd-status = Check a transaction
cmd-riwayat = Transaction history
cmd-alerts = Balance alerts
cmd-bahasa = Switch language
cmd-kunci = Replace api key
cmd-keluar = Remove api key
cmd-batal = Cancel the running flow
cmd-bantuan = Help

## Flow steps
flow-send-text = Send your answer as text, or press a button.
flow-search-hint = 🔎 Type words to search, or pick from the list.
flow-tap-a-button = Pick one of the buttons above, or /cancel.
flow-search-none = Nothing matches "{ $query }". Try other words.

## Confirmation and results
button-confirm = ✅ Confirm
button-check-status = 🔄 Check status
button-retry = 🔁 Try again
confirm-title = 🧾 <b>Check before you confirm</b>
confirm-expired = This confirm screen has expired (over 10 minutes). Please start again.
confirm-already = This transaction was already processed.
confirm-sending = Processing…
money-rejected = ❌ <b>Refused by the provider</b>: { $message }
money-pending = ⏳ Processing. The bot will tell you when the status changes.
money-unknown =
    ❓ <b>Outcome unknown</b>: the provider's server did not answer clearly. Your balance may have been charged.
    Do not repeat this transaction. The bot keeps checking it; you can also check with <code>/status { $ref }</code>.
retry-start-again = Please start again from /menu.

status-draft = Waiting for confirmation
status-sending = Sent
status-unknown = Unknown
status-pending = Processing
status-processing = Processing by provider
status-success = Successful
status-failed = Failed
status-expired = Expired
status-cancel = Cancelled

kind-prepaid = Purchase
kind-postpaid = Bill payment
kind-transfer = Transfer
kind-deposit = Deposit

receipt-target = Target
receipt-customer = Customer name
receipt-amount = Amount
receipt-fee = Fee
receipt-total = Total
receipt-sn = SN/Token
receipt-status = Status
receipt-message = Note
receipt-ref = Reference id
receipt-upstream-id = Provider id
receipt-created = Time
