# English: the bot's second language. Every user-facing text lives here (and in id.ftl).
# Money and times are already formatted by code (Rp10.000, WIB) before they get here.

## General
sandbox-banner = 🧪 <b>SANDBOX MODE</b>: not real money.
error-generic = ⚠️ Sorry, something went wrong. Please try again shortly.
button-expired = This button is no longer valid. Open /menu to start again.
rate-limited = ⏳ Too fast. Please wait a moment and try again.
fallback-hint = 🤔 Sorry, the bot did not understand that. Open /menu to choose, or /help.
private-only = 🔒 This command only works in a private chat with the bot.
button-open-private = 💬 Open a private chat with the bot
menu-group = 🔒 The menu, purchases and balance are only in a private chat with the bot, so group members never see your API key or balance. Tap the button below.
not-linked = 🔑 Your account is not linked yet. Send /start and paste the API key from your provider's dashboard.
not-linked-staff = 🔑 The shop owner's account is no longer linked to the bot, so selling is not possible yet. Ask the shop owner to link their API key again.
cancelled = ❌ Cancelled.
nothing-to-cancel = Nothing is running right now.
button-cancel = ❌ Cancel
button-back = ⬅️ Back
button-next = Next ➡️
button-prev = ⬅️ Previous
button-menu = 🏠 Menu
upstream-unavailable = 🌐 The provider's server cannot be reached right now. Please try again shortly.
upstream-unexpected = 🌐 The provider's server sent an answer the bot does not understand. Please try again shortly.
upstream-rejected = ❗ The provider refused (in Indonesian): { $message }
step-timeout = ⌛ Time is up (10 minutes without an answer). The flow has ended; please start again.
flow-lost-after-update = 🔄 The bot was updated, so the step you were in has ended and this answer was not used. Please start again from /menu.

## Start and linking an API key
welcome =
    👋 Hello, { $name }!

    This bot helps you sell phone credit, data packages, electricity tokens, game vouchers, pay bills, transfer money and add money to your balance, right from Telegram, with your own reseller account.
welcome-ask-key =
    🔑 To begin, send your <b>API key</b> (from your provider's dashboard, API/H2H menu).
    The message with the API key is deleted from this chat at once.
welcome-linked =
    ✅ Your account is linked (API key { $mask }).
    Open /menu to start, or /key to replace the API key.
key-ask = 🔑 Send the new API key. The message is deleted at once. Type /cancel to stop.
key-checking = 🔍 Checking the API key…
key-linked =
    ✅ <b>API key linked</b>
    Name: { $name }
    Balance: { $balance }
    API key: <code>{ $mask }</code>

    Open /menu to start.
key-rejected =
    ❌ The provider did not accept the API key. Its answer (in Indonesian): { $message }

    Check the API key in your provider's dashboard. If the message above names an IP address, add that IP to your account's whitelist. Then send the API key again.
key-check-failed = 🌐 The API key could not be checked because the provider's server cannot be reached. Send it again shortly.
key-invalid-format = That does not look like an API key (one line, no spaces). Send the API key from your provider's dashboard, or /cancel.
key-not-deleted = ⚠️ The bot could not delete the message with your API key. Please delete it yourself.
key-lost-relink = 🔑 Your saved API key could not be read after a change on the bot's server, so it was removed. Nothing was bought or charged. Paste your API key here to link it again (the message is deleted at once).
key-in-group =
    🚨 { $name }, your message looked like an API key, so { $deleted ->
        [yes] it was deleted
       *[no] please delete it yourself at once
    }. Never send an API key in a group. Open a private chat with the bot for what to do next.
key-in-group-private =
    🚨 Your message in the group <b>{ $group }</b> looked like an API key. { $deleted ->
        [yes] The bot deleted it.
       *[no] The bot could not delete it: delete it yourself at once.
    }
    Treat that API key as leaked: create a new one in your provider's dashboard and link it here with /key.
key-how-to-link =
    🔑 Your account is not linked yet. To begin, copy the <b>API key</b> from your provider's dashboard (API/H2H menu) and send it here: one line, no spaces. The message with the API key is deleted at once.
    Other messages are not sent to the provider.
key-already-linked = 🔑 That API key is already linked to this chat, so there is no need to send it again. The message was deleted to keep it safe.
key-other-pasted = 🔑 That looks like a different API key. The message was deleted to keep it safe. To replace the linked API key, send /key and then the new API key.
key-shared-elsewhere =
    ⚠️ <b>Your API key was also linked in another chat</b>
    The API key <code>{ $mask }</code> linked here was just linked by { $who } as well. { $count } chats can now buy with the same balance.

    If you did not share it, treat the key as leaked: make a new API key in the provider's dashboard, then send /kunci here.
key-linked-shared = ℹ️ This API key is already linked in other chats too (other chats: { $count }). The chat that had it first was told.
logout-done = 👋 The API key was removed from the bot. Send /start to link again.
logout-stops = ⚠️ { $what ->
        [staff] Your staff cannot sell until an API key is linked again.
        [shop] The online shop link cannot be used to buy until an API key is linked again.
       *[both] Your staff cannot sell and the online shop link cannot be used to buy until an API key is linked again.
    }
logout-none = No API key is linked.

## Balance
balance-show =
    💰 <b>Balance</b>
    Name: { $name }
    Balance: <b>{ $balance }</b>
    Account status: { $status }
    API key: <code>{ $mask }</code>
balance-owed = 👥 Downline wallets: { $owed } ({ $count } downlines), part of this balance.
balance-owed-short = ⚠️ Downline wallets hold { $owed }, more than this balance: top up (/deposit) so their purchases are not refused.
balance-status = { $status ->
        [active] Active
        [aktif] Active
        [inactive] Inactive
        [suspend] Suspended
        [suspended] Suspended
       *[other] { $raw }
    }

## Provider callbacks (/webhook): instant status
webhook-show =
    🔔 <b>Instant status (provider callbacks)</b>
    Your account's callback URL:
    <code>{ $url }</code>

    How to set it up:
    1. Log in to the atlantich2h.com dashboard and open the Webhook / Callback settings.
    2. Paste the URL above into the webhook URL field and save.
    3. Make one transaction: its status news arrives within seconds.

    { $state }
    Do not share this URL. If it leaks, press "New URL": the old URL stops working at once.
webhook-none-yet = Callbacks: none received yet. Status is still checked automatically at intervals.
webhook-working = Callbacks: working, last at { $at }
webhook-new-button = 🔁 New URL
webhook-renewed = New URL made. The old URL no longer works: paste the new one into the dashboard.
webhook-sandbox =
    🔔 <b>Instant status (sandbox mode)</b>
    The sandbox sends its callbacks to this bot by itself: nothing to paste into a dashboard. With the real provider, /webhook shows your URL when the bot has a PUBLIC_URL.
    { $state }
webhook-off =
    🔔 Instant status (provider callbacks) is not enabled on this bot.
    No problem: every transaction's status is still checked automatically at intervals, and you are told when it changes.

## Language
# This language, named in itself: its button in the language picker.
language-self = 🇬🇧 English
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
menu-report = 📊 Report
menu-customers = 📒 Customers
menu-markup = 💹 Selling prices
menu-shop = 🏪 Shop
menu-export = 📄 Export
help-title = ❓ <b>Help</b>
help-menu = main menu
help-saldo = check balance
help-harga = price list (e.g. <code>/prices tsel 10</code>; daily cost change digest: <code>/prices digest</code>)
help-beli = buy credit, data, tokens, vouchers (fast: <code>/topup CODE TARGET</code>)
help-tagihan = check and pay bills
help-transfer = transfer to a bank or e-wallet
help-deposit = add money to your balance (QRIS, bank, e-wallet)
help-status = check a transaction (<code>/status ID</code>)
help-riwayat = transaction history
help-toko = shop name for customer receipts (<code>/shop Name | address, WhatsApp</code>)
help-pesanan = online shop orders
help-laporan = sales, profit and the daily summary
help-ekspor = download a month of transactions as CSV
help-pelanggan = saved customers (search: <code>/customers budi</code>)
help-alerts = low-balance alerts
help-markup = your shop's selling prices (profit per product)
help-hargajual = a fixed selling price for one product
help-webhook = instant status (provider callback URL)
help-bahasa = switch language
help-kunci = replace the API key
help-staf = cashiers and shop admins (invite, change roles, remove)
help-audit = audit log (who changed what)
help-keluar = remove the API key from the bot
help-batal = cancel the running flow
help-downline = your downlines: wallets, levels, invitations
help-mutasi = your wallet's entries (downlines)
help-tarik = withdraw your wallet to a bank or e-wallet account (downlines)
help-keluar-staff = stop working as staff (the owner and their balance stay as they are)

## Command list (setMyCommands)
cmd-start = Start and link your API key
cmd-start-staff = Start
cmd-menu = Main menu
cmd-saldo = Check balance
cmd-harga = Price list
cmd-beli = Buy a product
cmd-tagihan = Check and pay bills
cmd-transfer = Bank or e-wallet transfer
cmd-deposit = Top up balance
cmd-status = Check a transaction
cmd-riwayat = Transaction history
cmd-pesanan = Online shop orders
cmd-laporan = Sales and profit report
cmd-ekspor = Export transactions as CSV
cmd-pelanggan = Saved customers
cmd-alerts = Balance alerts
cmd-markup = Selling prices (markup)
cmd-hargajual = Fixed selling price for a product
cmd-webhook = Instant status (callback URL)
cmd-bahasa = Switch language
cmd-kunci = Replace API key
cmd-keluar = Remove API key
cmd-keluar-staff = Stop working as staff
cmd-batal = Cancel the running flow
cmd-bantuan = Help
cmd-toko = Shop name for receipts

## Flow steps
flow-send-text = Send your answer as text, or press a button.
flow-search-hint = 🔎 Type words to search, or pick from the list.
flow-tap-a-button = Pick one of the buttons above, or /cancel.
flow-tap-a-button-or-beli = Pick one of the buttons above, or /cancel. If you know the code, type /topup CODE TARGET (e.g. /topup S10 081234567890).
flow-search-none = Nothing matches "{ $query }". Pick from this list, or type other words.
flow-left = ↩️ The step you were in has ended because you sent another command. Nothing was bought or sent; start again when you need it.

## Confirmation and results
button-confirm = ✅ Confirm
button-check-status = 🔄 Check status
button-retry = 🔁 Try again
confirm-title = 🧾 <b>Check before you confirm</b>
confirm-cancelled-title = ❌ <b>Cancelled</b>. Nothing was bought and no balance was taken.
confirm-waiting = ☝️ The confirm screen above is waiting for ✅ Confirm or ❌ Cancel. To change the details, tap ❌ Cancel and start again.
confirm-waiting-target = ☝️ The confirm screen above is waiting for ✅ Confirm or ❌ Cancel. To buy for another number, just send that number.
confirm-expired = This confirm screen has expired (over 10 minutes). Please start again.
confirm-was-cancelled = This screen was cancelled (or expired), so nothing was sent. Start again from /menu.
confirm-already = This transaction was already processed.
confirm-sending = Processing…
confirm-sending-title = ⏳ <b>Sending to the provider…</b> Do not repeat this transaction; the result follows in the next message.
confirm-sent-title = ☑️ <b>Sent to the provider.</b> The result is in the next message.
confirm-balance = Your balance: <b>{ $balance }</b>
confirm-wallet = 👛 From your wallet: { $price }, held until the outcome is known; returned if it fails.
confirm-payout-wallet = 👛 Payout from { $name }'s wallet: the wallet is charged { $amount } (already held) if the transfer succeeds. The admin fee comes from your balance.
confirm-balance-unread = Your balance: could not be read from the provider right now (check with /balance).
provider-checking = ⏳ Checking with the provider…
confirm-low-balance =
    ❌ <b>Balance too low</b>: total { $total }, your balance { $balance } ({ $missing } short).
    Nothing was sent to the provider. Top up your balance with Deposit first, then try again.
confirm-low-balance-staff =
    ❌ <b>The owner's balance is too low</b>: total { $total }, the owner's balance { $balance } ({ $missing } short).
    Nothing was sent to the provider. Contact the shop owner to top up, then try again.
confirm-low-balance-hidden =
    ❌ The owner's balance is too low for this sale; contact the shop owner.
    Nothing was sent to the provider.
confirm-duplicate =
    ⚠️ <b>There is already a purchase of { $what } for { $target } at { $time }</b> ({ $status }, id <code>{ $ref }</code>).
    Buy again? If you do, both may go through and your balance is charged twice.
button-buy-again = 🔁 Yes, buy again
confirm-not-saved = ⚠️ Nothing was sent and your balance was not charged: the bot could not save this step. Please press Confirm again in a moment.
store-unavailable = ⚠️ The bot's storage has a problem right now; no transaction was sent. Please try again in a moment.
money-rejected = ❌ <b>Refused by the provider</b> (in Indonesian): { $message }
money-pending = ⏳ Processing. The bot will tell you when the status changes.
money-unknown =
    ❓ <b>Outcome unknown</b>: the provider's server did not answer clearly. Your balance may have been charged.
    Do not repeat this transaction. The bot keeps checking it; you can also check with <code>/status { $ref }</code>.
money-unsaved =
    ❓ <b>Sent; the outcome is not saved yet</b>: the provider answered, but the bot's storage has a problem right now. Your balance may have been charged.
    Do not repeat this transaction. The bot checks it again once its storage works; you can also check with <code>/status { $ref }</code>.
retry-start-again = Please start again from /menu.
retry-already = A new confirm screen was already made for this one. Use that one.

status-draft = Waiting for confirmation
status-sending = Sent
status-unknown = Unknown
status-pending = Processing
status-processing = Processing by provider
status-success = Successful
status-failed = Failed
status-expired = Expired
status-cancel = Cancelled
status-deposit-pending = Waiting for payment
status-deposit-processing = Paid, credited on the next working day
status-deposit-releasing = Paid, instant release requested

kind-prepaid = Purchase
kind-postpaid = Bill payment
kind-transfer = Transfer
kind-deposit = Deposit

receipt-target = Target
receipt-customer = Customer name
receipt-amount = Amount
receipt-fee = Fee
receipt-total = Total
file-receipt = receipt
file-report = report
file-export = transactions
file-wallet = wallet-statement
receipt-sn-serial = SN
receipt-sn-token = Token
receipt-sn-bill = Bill reference
receipt-status = Status
receipt-message = Note
receipt-shop-order = Shop order
receipt-ref = Reference id
receipt-upstream-id = Provider id
receipt-created = Time
receipt-cost = Cost
receipt-sale-price = Selling price
receipt-profit = Profit

# Prices and prepaid purchases (/prices, /topup). Money is already formatted by code (Rp10.000).

## Price list
prices-title = 📋 <b>Price list</b>. Choose a category:
topup-title = 📱 <b>Buy a product</b>. Choose a category:
prices-hint =
    🔎 Search directly: <code>/prices tsel 10</code>, <code>/prices pln</code>, <code>/prices ff</code>
    ⚡ Quick buy: <code>/topup CODE TARGET</code>
prices-button-bills = 🧾 Bills
prices-button-refresh = 🔄 Refresh prices
prices-button-all = 📂 All categories
prices-button-buy = 🛒 Buy
prices-button-pay-bill = 🧾 Check & pay a bill
prices-choose-provider = <b>{ $category }</b>: choose a provider.
prices-products-title = <b>{ $category } › { $provider }</b>
prices-pick-product = Tap a product to see its details. ⛔ = out of stock.
topup-pick-product = Tap a product to buy it. ⛔ = out of stock, cannot be bought.
prices-page = Page { $page } of { $pages }
prices-category = Category
prices-availability = Availability
prices-cost-line = cost { $cost }
prices-sale-price = Selling price
prices-cost = Cost
prices-available = ✅ Available
prices-empty = ⛔ Out of stock (cannot be bought right now)
prices-search-title = 🔎 Results for "<b>{ $query }</b>": { $count } products
prices-search-none = 🔎 No product matches "{ $query }". Try other words (e.g. <code>tsel 10</code>, <code>pln 50</code>) or see all categories.
prices-search-narrow = Too many results: add words to narrow the search.
prices-bills-title = 🧾 <b>Bill services (postpaid)</b>. Admin fee per bill sheet:
prices-bill-line = • <b>{ $name }</b> (<code>{ $code }</code>): admin { $admin }
prices-bill-line-empty = • ⛔ <b>{ $name }</b> (<code>{ $code }</code>): admin { $admin }, currently unavailable
prices-bills-none = No bill services yet.
prices-admin-on-bill = as stated on the bill
prices-refreshed = 🔄 Price list refreshed.
prices-refreshed-all = 🔄 Every cached price list was dropped; the next request fetches fresh prices.
prices-list-changed = The price list has changed. Please choose again.

## Purchase
topup-product-line = 🛒 <b>{ $name }</b> (<code>{ $code }</code>): <b>{ $price }</b>
topup-note-line = ℹ️ Provider's note (in Indonesian): { $note }
topup-unknown-code = ❓ No product has the code <code>{ $code }</code>. See product codes in /prices, or search with words, e.g. <code>/prices tsel 10</code>.
topup-empty = ⛔ <b>{ $name }</b> (<code>{ $code }</code>) is out of stock, so it cannot be bought right now. Try another product in /prices.
topup-empty-alert = ⛔ { $name } is out of stock and cannot be bought right now.
topup-empty-no-alt = ⛔ <b>{ $name }</b> (<code>{ $code }</code>) is out of stock, and no other product has the same value.
topup-empty-nearest = The nearest from { $provider }, tap one to buy it:
prices-button-operator = 📋 All of { $provider }
topup-confirm-product = Product
topup-confirm-code = Code
topup-confirm-target = Target
topup-confirm-price = Price
topup-confirm-old-list = ⏳ The provider is slow, so the price is from the list of { $minutes } min ago. If the price has gone up since, the purchase is refused and no balance is taken.
topup-confirm-cost = Cost
topup-confirm-sale = Selling price
topup-confirm-profit = Profit
topup-price-changed = 💱 The price has changed: now <b>{ $price }</b> (was { $old }). Press "Try again" to buy at the new price.
topup-price-changed-hidden = 💱 This product's price has just changed. Press "Try again" to buy at the current selling price.
topup-now-empty = ⛔ { $name } is now out of stock.

## Selling prices (/markup, /sellprice)
markup-title = 💹 <b>Selling prices of your shop</b>
markup-none = No rules yet: every product sells at cost.
markup-line-all = All products: { $markup }
markup-line-category = Category { $name }: { $markup }
markup-line-product = Product { $code }: { $markup }
markup-line-fixed = Fixed price { $code }: { $price }
markup-line-bills = Bills (your admin fee): +{ $fee }
markup-explain =
    The most specific rule wins: fixed price › product code › category › all products. Selling prices are rounded up to the next Rp100. Transfers and deposits have no markup.
    Examples: <code>/markup 2000</code> · <code>/markup 5%</code> · <code>/markup pulsa 1500</code> · <code>/markup PLN100 2500</code> · <code>/markup bills 2500</code> (your admin fee on bills) · <code>/sellprice S10 12000</code>
    Remove: <code>/markup clear pulsa</code> · <code>/markup clear bills</code> · <code>/markup clear</code> (the all-products rule) · <code>/markup clear all</code>
markup-saved = ✅ Selling-price rule saved. It applies from the next confirm screen.
markup-cleared = ✅ All selling-price rules removed.
markup-unreadable = ❓ I couldn't read that rule. Examples: <code>/markup 2000</code> (Rp2.000 per sale), <code>/markup 5%</code>, <code>/markup pulsa 1500</code>, <code>/markup PLN100 2500</code>. Nothing was changed.
markup-percent-range = ❓ A percentage must be between 0% and 100%, e.g. <code>/markup 5%</code>. Nothing was changed.
markup-flat-range = ❓ A markup can be at most { $max } per sale, e.g. <code>/markup 2000</code>. Nothing was changed.
markup-bills-flat = ❓ Your admin fee for bills is an amount in rupiah, not a percentage, e.g. <code>/markup bills 2500</code>. Nothing was changed.
markup-unknown-target = ❓ No category or product code { $word }. Categories: { $categories }. Examples: <code>/markup pulsa 1500</code> or <code>/markup PLN100 2500</code>. Nothing was changed.
markup-no-rule = There is no rule for { $what }, so nothing was removed. See your rules with /markup.
markup-what-all = all products
sellprice-usage = Fix one product's selling price: <code>/sellprice CODE PRICE</code>, e.g. <code>/sellprice PLN100 102500</code>. Remove it: <code>/sellprice PLN100 clear</code>.
sellprice-unreadable = ❓ I couldn't read that price. Nothing was changed.
sellprice-unknown-code = ❓ The product code { $code } was not found. See the codes in /prices. Nothing was changed.
sellprice-set = ✅ The selling price of { $name } ({ $code }) is now { $price } (cost today { $cost }, profit { $profit }).
sellprice-below-cost = ⚠️ That is below today's cost ({ $cost }): you lose money on every sale.
sellprice-removed = ✅ The fixed price of { $code } was removed; your /markup rules apply again.
sellprice-none-for = There is no fixed price for { $code }. See your rules with /markup.

## Target
target-ask-phone = 📞 Send the phone number to top up (e.g. <code>081234567890</code>).
target-ask-emoney = 📞 Send the phone number registered with the e-money account (e.g. <code>081234567890</code>).
target-ask-pln = ⚡ Send the PLN meter number or customer id (11–12 digits, on the meter card or a token receipt).
target-ask-game = 🎮 Send the game account id.
target-ask-game-server = 🎮 Send the game account id and server, e.g. <code>12345678 1234</code> or <code>12345678(1234)</code>.
target-ask-text = ✏️ Send the target as the product's note asks.
target-empty = The target is empty. Send it, or press Cancel.
target-one-line = The target must be a single line. Send it again.
target-phone-invalid = ❗ That is not a valid phone number. Send a number starting with 08, 628 or +628 (10–13 digits), e.g. <code>081234567890</code>.
target-phone-operator = ❗ <code>{ $number }</code> is a { $numberOperator } number, but this product is for { $productOperator }. Send a { $productOperator } number, or choose another product after /cancel.
target-pln-invalid = ❗ A PLN meter number has 11–12 digits, a customer id 12 (10–13 are accepted): send it again or tap ❌ Cancel.
target-game-server-invalid = ❗ Send the id and server, e.g. <code>12345678 1234</code>, <code>12345678(1234)</code> or <code>12345678|1234</code>.
target-text-length = ❗ The target must be { $min }–{ $max } characters. Send it again.
target-text-chars = ❗ The target may only contain letters, digits, spaces and . - _ ( ) # @. Send it again.

## Postpaid bills (/bill)
bill-choose-service =
    🧾 <b>Pay a bill</b>
    Choose the billing service:
bill-service-off = ⛔ { $name } (disrupted)
bill-service-unavailable = ⛔ <b>{ $name }</b> is disrupted at the provider and cannot be used right now. Choose another service, or try again later.
bill-no-services = The provider offers no billing services for your account yet.
bill-ask-number =
    🧾 <b>{ $service }</b>
    Type the customer number (customer ID) whose bill you want to check.
bill-provider-note = ℹ️ Provider's note (in Indonesian): { $note }
bill-number-not-digits = A customer number has digits only (spaces and dashes are fine). Type the number again, or press Cancel.
bill-number-length = A customer number has { $min } to { $max } digits; you typed { $length }. Check it and type it again.
bill-not-found =
    ❌ The provider says (in Indonesian): { $message }
    This number is not registered with { $service }. Check the number, or make sure you picked the right service.
bill-already-paid =
    ✅ The provider says (in Indonesian): { $message }
    There is nothing to pay for this number right now: the bill is already paid, or the new bill has not been issued yet.
bill-number-other = Type another customer number, or press Cancel.
bill-retry-or-other = Press Try again to check the same number, type another number, or press Cancel.

bill-line-number = Customer number: { $number }
bill-line-name = Customer name: { $name }
bill-line-tariff = Tariff/power: { $tariff } / { $power }
bill-line-participants = Participants: { $count }
bill-line-periods = Billing periods ({ $sheets ->
        [one] 1 bill
       *[other] { $sheets } bills
    }):
bill-period = • { $period }: { $amount }
bill-period-penalty = • { $period }: { $amount } + late fee { $penalty }
bill-period-only = • { $period }
bill-period-months = { $count ->
        [one] 1 month
       *[other] { $count } months
    }
bill-line-bill = Bill: { $amount }
bill-line-admin = Admin fee: { $amount }
bill-line-total = <b>Total the customer owes: { $amount }</b>
bill-line-cost = Your cost (debited from your balance): <b>{ $amount }</b>
bill-line-shop-fee = Your shop's admin fee: { $amount }
bill-line-sale = Selling price: <b>{ $amount }</b>
bill-line-profit = Profit: <b>{ $amount }</b>

bill-low-balance = Your balance is { $balance } and this bill costs { $cost }. Top up with /deposit, then press Try again (the bill will be checked again).
bill-low-balance-short = Top up with /deposit, then press Try again (the bill will be checked again).
bill-low-balance-staff = The owner's balance is too low to pay this bill; contact the shop owner, then press Try again (the bill will be checked again).

# Transfer to a bank or e-wallet (/transfer).

transfer-choose-bank = 💸 <b>Transfer</b>. Pick the destination bank or e-wallet:
transfer-choice-bank = 🏦 { $name }
transfer-choice-ewallet = 👛 { $name } (e-wallet)
transfer-search-none = No bank or e-wallet matches "{ $query }". Pick one from this list first (the account number is asked next), or type part of its name, e.g. <code>bca</code> or <code>dana</code>.
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
transfer-over-balance = ❌ Your balance of { $balance } is not enough to transfer { $amount }.
transfer-over-balance-fee = ❌ Your balance of { $balance } is not enough to transfer { $amount } plus the fee (up to { $fee }).
transfer-over-balance-retype = Type a smaller amount, at most { $max }, or cancel and top up with Deposit. Nothing was sent to the provider.
transfer-over-balance-retype-fee-unknown = Type a smaller amount: the balance must cover the amount plus the transfer fee. Or cancel and top up with Deposit. Nothing was sent to the provider.
transfer-over-balance-none = This balance cannot cover the minimum transfer of { $min } with its fee. Cancel, top up with Deposit, then try again. Nothing was sent to the provider.
transfer-ask-note = Add a note to this transfer (up to { $max } characters), or press Skip.
transfer-button-skip = ⏭ Skip
transfer-note-too-long = The note is too long ({ $length } characters, up to { $max }). Type a shorter one, or press Skip.
transfer-confirm =
    💸 <b>Transfer to { $bank }</b>
    Destination number: <code>{ $number }</code>
    Holder: <b>{ $holder }</b>
    Amount: { $amount } (what the account holder receives)
transfer-fee-estimate =
    Fee: ≈ { $fee } (estimated from your last transfer to { $type ->
        [ewallet] an e-wallet
       *[bank] a bank
    }; the provider sets the exact fee, shown on the receipt)
    Leaves your balance: ≈ { $total } (amount + fee)
transfer-fee-bound =
    Fee: at most { $fee } (the most the provider charges for a transfer to { $type ->
        [ewallet] an e-wallet
       *[bank] a bank
    }; the exact fee is shown on the receipt)
    Leaves your balance: at most { $total } (amount + fee)
transfer-fee-highest =
    Fee: set by the provider, at most { $fee } so far on your transfers; the exact fee is shown on the receipt
    Leaves your balance: the amount + the fee, so far at most { $total }
transfer-fee-unknown =
    Fee: set by the provider and added to the amount (no earlier transfer to estimate it from); the exact fee is shown on the receipt
    Leaves your balance: { $amount } + the fee
transfer-confirm-note = Note: { $note }
receipt-holder = Account holder

## Deposit (/deposit)
deposit-choose-method = 🏦 <b>Top up your balance</b>. Choose a payment method:
deposit-method-line = • <b>{ $method }</b>: { $limits }, fee: { $fee }
deposit-no-methods = No deposit method is active right now. Please try again later.
deposit-fee-free = free
deposit-ask-amount =
    💵 How much do you want to deposit with <b>{ $method }</b>?
    Minimum { $min }, maximum { $max }. E.g. <code>50000</code>, <code>50.000</code>, <code>50rb</code>, <code>1jt</code>.
deposit-amount-invalid = That amount was not understood. Write whole rupiah, e.g. <code>50000</code>, <code>50rb</code> or <code>1jt</code>.
deposit-amount-out-of-range = That amount is outside this method's limits: minimum { $min }, maximum { $max }. Type another amount.

deposit-confirm-method = Method: <b>{ $method }</b>
deposit-confirm-fee = Estimated fee: { $fee } ({ $rule })
deposit-confirm-fee-only = Estimated fee: { $fee }
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
deposit-no-code = ⚠️ The provider has this deposit, but its payment code (QR or VA number) could not be fetched because the provider's answer to the create was lost. It cannot be paid: cancel it, then make a new deposit. Nothing was taken from your balance.
deposit-unknown =
    ❓ <b>Outcome unknown</b>: the provider's server did not answer clearly. Nothing was taken from your balance: a deposit never takes from it.
    The bot is checking whether the payment code (QR or VA number) was made and sends it here once found. Do not make the same deposit again; you can also check with <code>/status { $ref }</code>.
deposit-unsaved =
    ❓ <b>Sent; the outcome is not saved yet</b>: the provider answered, but the bot's storage has a problem right now. Nothing was taken from your balance: a deposit never takes from it.
    Do not make the same deposit again. The bot checks it again once its storage works and sends the payment code; you can also check with <code>/status { $ref }</code>.

deposit-button-pay = 💳 Pay
deposit-button-cancel = 🚫 Cancel deposit
deposit-button-release = ⚡ Release now
deposit-button-release-confirm = ⚡ Yes, release
deposit-button-release-later = Not now

deposit-cancelled = 🚫 <b>Deposit cancelled.</b> Do not pay this deposit any more.
deposit-cancel-ask = 🚫 Cancel this deposit? Once cancelled, its payment code no longer works. Ref: <code>{ $ref }</code>
deposit-button-cancel-yes = 🚫 Yes, cancel
deposit-button-cancel-no = No
deposit-cancel-kept = Deposit <code>{ $ref }</code> was not cancelled: it can still be paid.
# Words on the grey image that replaces a payment QR that can no longer be paid.
deposit-void-cancel = CANCELLED
deposit-void-expired = EXPIRED
deposit-void-failed = FAILED
deposit-void-do-not-pay = Do not pay
# Words on the green image that replaces a payment QR once it is paid (nobody pays it twice).
qr-card-paid = PAID
qr-card-paid-note = Already paid
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

## Status watcher (automatic messages when a transaction changes) and /status

watch-success = ✅ <b>Transaction successful</b>
watch-failed = ❌ <b>Transaction failed</b>.
watch-failed-reason = The provider's reason (in Indonesian): { $reason }
watch-failed-no-reason = The provider gave no reason.
watch-money-refunded = 💰 According to the provider, your balance was refunded.
watch-money-unstated = The provider did not say whether your balance was refunded. Check with /balance; if it was charged and not returned, contact the provider with the reference id below.
watch-sale-failed-refunded-staff = 💰 The sale failed; the customer is not charged: give the money back or try another number. (According to the provider, the owner's balance was refunded.)
watch-sale-failed-staff = The sale failed; the customer is not charged: give the money back or try another number. The provider did not say whether the owner's balance was refunded; the shop owner can check.
watch-deposit-success = ✅ <b>Deposit received</b>: { $credited } was added to your balance.
watch-deposit-failed = ❌ <b>Deposit failed</b>. Nothing was added to your balance.
watch-deposit-expired = ⌛ <b>Deposit expired</b>: no payment was received. Make a new one with /deposit if needed.
watch-deposit-cancel = 🚫 <b>Deposit cancelled</b>. Do not pay these deposit instructions.
watch-deposit-processing =
    💳 <b>Deposit payment received</b>.
    The funds reach your balance on the next working day, or can be released now (instant) for a handling fee.
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
watch-caption-processing = ✅ <b>PAID</b>: the funds reach your balance on the next working day.
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

## Transaction history (/history)
history-title = 📜 <b>Transaction history</b> (page { $page } of { $pages })
history-empty = 📜 No transactions yet. Start from /menu.
history-tap-hint = Tap a number to see the details.
history-detail-title = 🧾 <b>Transaction details</b>
history-updated = Updated
history-cost = Cost price
history-credited = Credited
history-back = ⬅️ History

## Customer receipts (/shop, the 🧾 Receipt button)
button-receipt = 🧾 Receipt
shop-show =
    🏪 <b>Customer receipts</b>
    Shop name: { $name }
    Footer line: { $footer }

    Set: <code>/shop Shop Name | address or WhatsApp number</code>
    Remove: <code>/shop clear</code>
    Send a receipt with the 🧾 Receipt button under a successful sale (its status message or /history).
shop-not-set = <i>not set</i>
shop-saved =
    ✅ Saved. The next receipts show:
    Shop name: { $name }
    Footer line: { $footer }
shop-cleared = ✅ Shop name and footer removed. Receipts use a plain heading.
shop-name-too-long = ❌ The shop name is too long (at most { $max } characters). Nothing was changed.
shop-footer-too-long = ❌ The footer line is too long (at most { $max } characters). Nothing was changed.
shop-name-missing = ❌ Write the shop name first, e.g. <code>/shop Cell Jaya | Jl. Melati 5, WA 0812-3456-7890</code>
shop-receipt-not-success = Receipts are only for successful sales.
shop-receipt-hint = Tip: send /shop Your Shop Name to show your shop's name on receipts.
shop-receipt-heading = PURCHASE RECEIPT
shop-receipt-product = Product
shop-receipt-target = Number
shop-receipt-customer-no = Customer ID
shop-receipt-customer = Name
shop-receipt-period = Period
shop-receipt-sn = Serial number
shop-receipt-sn-info = Details
shop-receipt-token = Electricity token
shop-receipt-price = Total
shop-receipt-status = SUCCESSFUL
shop-receipt-ref = Reference
shop-receipt-thanks = Thank you!
shop-receipt-transfer-heading = TRANSFER RECEIPT
shop-receipt-bank = To
shop-receipt-account = { $type ->
    [ewallet] E-wallet number
   *[bank] Account number
}
shop-receipt-holder = Account holder
shop-receipt-amount = Amount
shop-receipt-fee = Fee
shop-receipt-note = Note
shop-receipt-total = Total
shop-receipt-sandbox = SIMULATION · NOT A REAL SALE
# Reports and export (/report, /export) and the daily summary at 21:00 WIB.
report-title = 📊 <b>Sales report</b>
report-period = <b>{ $name }</b> ({ $dates })
report-period-today = Today
report-period-yesterday = Yesterday
report-period-week = Last 7 days
report-period-month = This month
report-sales = Sold: { $sales } · Failed: { $failed }
report-money = Turnover: { $turnover } · Cost: { $cost } · Profit: <b>{ $profit }</b>
report-deposits = Deposits credited: { $credited } ({ $count }x)
report-transfers = Transfers out: { $amount } ({ $count }x) · fees { $fees }
report-top-title = 🏆 <b>Best sellers this month</b>
report-top-line = { $rank }. { $title }: { $sales }x · profit { $profit }
report-top-short = Best sellers: { $list }
report-empty = 📊 No transactions this month yet. The report fills in after the first sale.
report-chart-title = Profit per day · { $month }
report-chart-total = Total: { $profit } from { $sales ->
        [one] 1 sale
       *[other] { $sales } sales
    }
report-chart-caption = 📈 Profit per day, { $month }.
report-button-daily-on = 🔔 Daily summary at 21:00 WIB: turn on
report-button-daily-off = 🔕 Daily summary: turn off
report-daily-turned-on = 🔔 Daily summary on: the day's figures every day at 21:00 WIB. Turn it off again in /report.
report-daily-turned-off = 🔕 Daily summary turned off. Turn it on again in /report.
report-button-export = 📄 Export CSV
daily-summary-title = 🌙 <b>Today's summary</b> ({ $date })
daily-summary-top = 🏆 <b>Best sellers today</b>
daily-summary-footer = Full report: /report (you can turn this summary off there).
export-choose = 📄 <b>Export CSV</b>: choose a month. The file opens in Excel or Google Sheets.
export-month-empty = No transactions in that month.
export-caption = 📄 Transactions { $month }: { $count } rows.
csv-time = Time (WIB)
csv-ref = Reference id
csv-provider-id = Provider id
csv-kind = Kind
csv-code = Code
csv-product = Product
csv-target = Target
csv-cost = Cost price
csv-price = Selling price
csv-profit = Profit
csv-money-in = Deposit in
csv-money-out = Transfer out
csv-status = Status
csv-sn = Serial number
csv-own-price = Your price
csv-wallet = Wallet
csv-wallet-time = Time (WIB)
csv-wallet-kind = Kind
csv-wallet-amount = Amount
csv-wallet-balance = Balance
csv-wallet-ref = Reference
csv-wallet-reason = Reason
## Buy again and saved customers (/customers)
button-buy-again-sale = 🔁 Buy again
button-check-bill-again = 🔎 Check the bill again
button-save-customer = 💾 Save customer
button-copy-sn-serial = 📋 Copy SN
button-copy-sn-token = 📋 Copy token
button-copy-sn-bill = 📋 Copy reference
buy-again-open = ☝️ Its confirm screen is already above: tap ✅ Confirm there.
customer-ask-name =
    💾 Save { $target } ({ $what }) as a customer.
    Type their name, for example <code>Budi</code>:
customer-ask-rename = ✏️ Type a new name for <b>{ $name }</b> ({ $target }):
customer-name-one-line = A name is one line. Type it again, or /cancel.
customer-name-length = A name has 1 to { $max } characters. Type it again, or /cancel.
customer-saved = ✅ { $target } saved as <b>{ $name }</b>. It shows up as a button when you buy again. See all: /customers
customer-saved-renamed = ✅ { $target } was saved as { $old }; its name is now <b>{ $name }</b>. See all: /customers
customer-renamed = ✏️ <b>{ $old }</b> is now called <b>{ $name }</b>.
customer-gone = This customer is no longer in the list.
customers-full = 📒 The customer list is full ({ $max }). Delete ones you no longer need in /customers, then save again.
customers-empty =
    📒 No saved customers yet.
    After a successful sale, tap 💾 Save customer under its message.
customers-title = 📒 <b>Saved customers</b> ({ $count } of { $max })
customers-search-title = 🔎 <b>Customers "{ $query }"</b>: { $count } found
customers-search-none = 🔎 No customer matches "{ $query }". See all: /customers
customers-page = Page { $page } of { $pages }
customers-hint = Tap a name to rename or delete it. Search: <code>/customers budi</code>
customers-back = ⬅️ Customer list
customer-detail-title = 👤 <b>{ $name }</b>
customer-kind-phone = Phone number
customer-kind-number = Meter/customer number
customer-kind-account = Account number
customer-kind-id = ID
customer-detail-product = From
customer-detail-saved = Saved
customer-button-buy = 🛒 Buy { $product }
customer-button-rename = ✏️ Rename
customer-button-delete = 🗑 Delete
customer-button-delete-yes = 🗑 Yes, delete
customer-button-keep = ⬅️ Keep
customer-delete-ask = 🗑 Delete <b>{ $name }</b> ({ $target }) from your customers?
customer-deleted = 🗑 <b>{ $name }</b> ({ $target }) deleted from your customers.

# Low-balance alerts (/alerts) and the alert message.

alerts-status-off = 🔔 <b>Balance alerts</b>: <b>off</b>.
alerts-status-on = 🔔 <b>Balance alerts</b>: on, you are told when the balance is below <b>{ $threshold }</b>.
alerts-ask = Type a new threshold, e.g. <code>100000</code>, <code>100rb</code> or <code>1jt</code>.
alerts-button-off = 🔕 Turn alerts off
alerts-invalid = That is not an amount. Type a number like <code>100000</code>, <code>100rb</code> or <code>1,5jt</code>, or /cancel.
alerts-out-of-range = The threshold must be between { $min } and { $max }. Type it again, or /cancel.
alerts-turned-off = 🔕 Balance alerts are off. Turn them on again any time with /alerts.
alerts-set =
    ✅ Balance alerts on: you are told once when the balance falls below <b>{ $threshold }</b>.
    The balance is checked after every transaction and regularly.
alert-low =
    ⚠️ <b>Low balance</b>
    Your balance is now <b>{ $balance }</b>, below your alert threshold of { $threshold }.
    Top up with /deposit. Alert settings: /alerts

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
admin-round-under-title = Under threshold:
admin-round-under-line = • { $chat }: { $balance } (threshold { $threshold })
admin-round-under-more = … and { $count } more chats

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
broadcast-summary =
    ✅ Broadcast finished: { $sent } sent, { $failed } failed, { $blocked } blocked the bot (not messaged again).
    { $uncertain ->
        [0] Every chat was processed.
       *[other] { $uncertain } chat(s) were being sent to when the bot stopped abruptly; not sent again to avoid duplicates.
    }

store-write-failed = ⚠️ The bot's storage is failing to save; nothing was sent to the provider. Please try again in a few minutes.
key-not-saved = ⚠️ The bot's storage is failing to save: the provider accepted your API key, but it is not saved yet. Send the API key again in a few minutes.

## staff
cmd-staf = Staff: cashiers and shop admins
cmd-audit = Audit log
staff-role-cashier = cashier
staff-role-admin = shop admin
staff-the-owner = the owner's shop
staff-shop-of = { $owner }'s shop
staff-shop-named = { $shop } ({ $owner }'s shop)
staff-this-button = use this button
staff-below-cost = ⛔ { $name } (<code>{ $code }</code>) cannot be sold yet: its selling price needs updating by the owner or a shop admin. Nothing was bought.
staff-alt-line = • <b>{ $name }</b> (<code>{ $code }</code>): <b>{ $price }</b>
staff-only-owner = 🔒 Only the owner can { $what }.
staff-only-admin = 🔒 Only the owner or a shop admin can { $what }.
staff-title = 👥 <b>Staff</b> ({ $count })
staff-none = No staff yet. Invite a cashier or a shop admin with the buttons below.
staff-line = { $n }. <b>{ $name }</b> · { $role } · { $seen }
staff-seen-at = last active { $time }
staff-never-seen = never active
staff-member-seen-at = Last active: { $time }
staff-member-never-seen = Never active
staff-roles-help =
    <b>Cashier</b>: sells credit and bills, checks status, sees own sales, receipts, buy again, customers.
    <b>Shop admin</b>: all that, plus selling prices, shop settings, reports, exports and everyone's history.
    Only you: the API key, transfers, deposits, staff, and turning the shop off.
    Staff sell with your balance; every transaction records who made it.
staff-button-invite-cashier = ➕ Invite a cashier
staff-button-invite-admin = ➕ Invite a shop admin
staff-button-notices-on = 🔔 Staff sale notices to me: on
staff-button-notices-off = 🔕 Staff sale notices to me: off
staff-button-cost-on = 👁 Cashiers see cost and balance: yes
staff-button-cost-off = 🙈 Cashiers see cost and balance: no
staff-button-make = Make { $role }
staff-button-remove = 🚫 Remove now
staff-full = Staff limit reached (20 people, unused invitations included). Remove someone first.
staff-invite-link =
    🔗 Invitation as <b>{ $role }</b>, single use, valid until { $until }:
    { $link }
    Send this link (or forward this message) only to the person you mean. They open it in a private chat with the bot.
staff-button-join = 👥 Join as { $role }
staff-member =
    👤 <b>{ $name }</b>
    Role: { $role }
    Joined: { $since }
    { $seen }
staff-gone = This person is no longer your staff.
staff-role-changed = ✅ Role changed to { $role }. It applies from their next tap.
staff-role-changed-you = ℹ️ Your role was changed to { $role }.
staff-removed = ✅ { $name } was removed. Their next tap is refused.
staff-removed-you = ℹ️ The shop owner ended your staff membership. You can no longer sell with their balance.
staff-joined = ✅ You are now { $role } at { $shop }. Open /menu to start selling. Leave any time with /logout.
staff-joined-owner = 👥 { $name } joined as { $role }.
staff-welcome = 👋 You are { $role } at { $shop }. Open /menu to sell; /logout to stop being staff.
staff-leave-ask = ❓ Stop working as { $role } at { $shop }? You can no longer sell with the owner's balance until you are invited again.
staff-button-leave = 🚪 Yes, stop
staff-button-stay = ↩️ Stay on the staff
staff-leave-kept = 👍 You still work as { $role } at { $shop }.
staff-left = ✅ You are no longer staff. Nothing else changed.
staff-left-owner = 👥 { $name } left your staff.
staff-key-refused = 🔒 A staff chat cannot link an API key; that message was deleted. To use your own key, leave first with /logout.
staff-join-unknown = ❌ This invitation is not known. Ask the shop owner for a new link.
staff-join-expired = ⌛ This invitation has expired (valid 24 hours). Ask the shop owner for a new link.
staff-join-used = ❌ This invitation was already used. Ask the shop owner for a new link.
staff-join-self = ❌ This is your own invitation: an owner cannot be their own staff.
staff-join-owner = ❌ This chat is linked to an API key of its own: an owner cannot be someone else's staff.
staff-join-staff-elsewhere = ❌ You are staff of another shop. Leave first with /logout.
staff-join-already = ℹ️ You are already staff of this shop.
staff-join-full = ❌ This shop already has 20 staff.
report-per-person-title = 👥 <b>Per person this month</b>
report-per-person-line = • { $name }: { $sales ->
        [one] 1 sale
       *[other] { $sales } sales
    } · turnover { $turnover } · profit { $profit }
report-per-person-owner = Owner
csv-by = By
csv-by-shop = Online shop
csv-audit-time = Time (WIB)
csv-audit-who = Who
csv-audit-act = Action
csv-audit-before = Before
csv-audit-after = After
file-audit = audit
audit-title = 🧾 <b>Audit log</b> (newest first)
audit-empty = The audit log is empty.
audit-no-more = No older entries.
audit-button-more = ⬇️ Older
audit-button-export = 🧾 Audit log (CSV)
audit-export-caption = 🧾 Audit log: the latest { $count } entries.
audit-act-key_linked = API key linked
audit-act-key_replaced = API key replaced
audit-act-key_removed = API key removed
audit-act-staff_invited = staff invited
audit-act-staff_joined = staff joined
audit-act-staff_role_changed = staff role changed
audit-act-staff_removed = staff removed
audit-act-staff_left = staff left
audit-act-staff_choice_changed = staff settings changed
audit-act-prices_changed = selling prices changed
audit-act-shop_changed = shop settings changed
audit-act-transfer = transfer
audit-act-deposit_created = deposit created
audit-act-deposit_cancelled = deposit cancelled
audit-act-deposit_released = deposit released instantly
audit-act-export = export
audit-act-refund = refund
audit-export-log = audit log
audit-value-none = empty
audit-prices-none = no rules (cost price)
audit-link-old = old link
audit-link-new = new link
audit-setting-ownerNotices = Staff sales notices to the owner
audit-setting-cashierSeesCost = Cashiers see cost and balance
audit-setting-shopName = Shop name on receipts
audit-setting-shopFooter = Receipt bottom line
audit-setting-enabled = Online shop on
audit-setting-paused = Online shop paused
audit-setting-code = Shop link code
audit-setting-link = Shop link
audit-setting-categories = Categories sold
audit-setting-operators = Operators sold
audit-setting-hours = Opening hours
audit-setting-feePayer = QRIS fee paid by
audit-setting-instantRelease = Instant QRIS release
audit-setting-dailyUnpaidCap = Unpaid QRIS limit per day
audit-setting-contact = Contact for customers

## shop orders
# Online shop orders: the customer's QRIS, the purchase's outcome, the owner's notices, /orders.
shop-order-qr =
    🧾 <b>Pay with QRIS</b>
    Product: <b>{ $product }</b>
    Target: <code>{ $target }</code>
    Total to pay: <b>{ $amount }</b>
    Valid until: { $expires }
    Order no.: <code>{ $ref }</code>

    Scan this QR with any bank or e-wallet app. The product is sent automatically once the payment is received.
shop-order-button-check = 🔄 Check payment
shop-order-button-cancel = ✖️ Cancel
shop-order-check-paid = ✅ Payment received. Your order is being processed.
shop-order-check-unpaid = Payment not received yet. If you have paid, wait a moment and check again.
shop-order-qr-paid = ✅ <b>PAID</b>. Payment received { $time }. The order is being processed.
# What the order was, under the card that replaces its QR (paid, expired, cancelled).
shop-order-qr-summary =
    Product: <b>{ $product }</b>
    Target: <code>{ $target }</code>
    Total: <b>{ $amount }</b>
    Order no.: <code>{ $ref }</code>
shop-order-cancelling = Order cancelled.
shop-order-cannot-cancel = This order can no longer be cancelled.
shop-order-limit-unpaid = You still have { $max } unpaid orders. Pay or cancel one of them first.
shop-order-limit-rate = Too many orders in a short time. Please try again in a few minutes.
shop-order-limit-daily = The shop is not taking new orders today. Please try again tomorrow.
shop-order-unavailable = Sorry, this shop cannot take payments right now. Please try again later.
shop-order-qris-refused = Sorry, the QRIS could not be made now. No money was taken. Please try again later.
shop-order-qris-unknown = Your QRIS is being prepared (order <code>{ $ref }</code>). We will tell you shortly; do not pay before the QR arrives.
shop-order-expired = ⌛ The QRIS of order <code>{ $ref }</code> ({ $product }) expired and the order is closed. No money was taken.
shop-order-cancelled = Order <code>{ $ref }</code> ({ $product }) was cancelled. No money was taken.
shop-order-processing = ✅ Payment for order <code>{ $ref }</code> received. The order is waiting for the shop to process it; this may take longer. The product is sent automatically once done, and your money is safe.
shop-order-done = ✅ Your order succeeded!
shop-order-failed =
    ⚠️ Order <code>{ $ref }</code> ({ $product }) failed.
    Your money is safe ({ $amount }). Choose another product for the same amount below, or ask for a refund.
shop-order-failed-refund-only =
    ⚠️ Order <code>{ $ref }</code> ({ $product }) failed.
    Your money is safe ({ $amount }). Tap 💸 Refund me below, then send the number to refund to.
shop-order-failed-reason = The provider's reason (in Indonesian): { $reason }
shop-order-failed-absent =
    ⚠️ The purchase of order <code>{ $ref }</code> ({ $product }) did not reach the provider.
    Your money is safe ({ $amount }); the seller will refund it. Tap the button below and send the account to refund to.
shop-order-button-alt = 🔁 { $product }
shop-order-button-refund = 💸 Refund me
shop-order-alt-buying = Processing with the replacement product.
shop-order-alt-gone = This choice is no longer available.
shop-order-unknown = ⏳ Order <code>{ $ref }</code> was sent to the provider but its outcome is not known yet. Your money is safe; we keep checking and will tell you.
shop-order-refund-ask =
    Where should the money go back to? Send the bank or e-wallet code and the number, e.g.:
    <code>DANA 081234567890</code> or <code>BCA 1234567890</code>
shop-order-refund-ask-again = Bank/e-wallet code or number not recognised. Send it like the example: <code>DANA 081234567890</code>
shop-order-refund-noted = Your refund request for order <code>{ $ref }</code> was passed to the shop owner.
shop-order-refunded = 💸 The money of order <code>{ $ref }</code> ({ $amount }) was refunded.
shop-order-owner-done =
    🛒 <b>Shop order sold</b>
    Product: { $product }
    Target: <code>{ $target }</code>
    Paid: { $paid } (QRIS fee { $fee })
    Cost: { $cost }
    Profit: <b>{ $profit }</b>
    Customer: { $customer }
    SN: <code>{ $sn }</code>
    Order no.: <code>{ $ref }</code>
shop-order-owner-failed =
    ⚠️ <b>Shop order failed</b>: { $product } to <code>{ $target }</code> ({ $reason })
    Customer { $customer } paid { $paid } and was offered another product ({ $alternatives }) or a refund.
    Order no.: <code>{ $ref }</code>
shop-order-owner-failed-refund-only =
    ⚠️ <b>Shop order failed</b>: { $product } to <code>{ $target }</code> ({ $reason })
    Customer { $customer } paid { $paid } and was offered a refund (no other product for the same amount).
    Order no.: <code>{ $ref }</code>
shop-order-owner-failed-absent =
    ⚠️ <b>Shop order failed</b>: { $product } to <code>{ $target }</code> did not reach the provider.
    Customer { $customer } paid { $paid } and was offered a refund (no other product).
    Order no.: <code>{ $ref }</code>
shop-order-owner-absent = The provider has no record of purchase <code>{ $purchase }</code>. Check the provider panel before refunding.
shop-order-reason-not-sent = the purchase was never sent to the provider
shop-order-owner-both =
    ⚠️ <b>Both the purchase and the refund happened</b> for order <code>{ $ref }</code>.
    The provider did record purchase <code>{ $purchase }</code> ({ $product } to <code>{ $target }</code>) and it succeeded (SN: <code>{ $sn }</code>), while the refund of { $paid } to { $customer } had already started.
    The customer has the product and the money back; settle it with the customer directly.
shop-order-owner-unknown =
    ⏳ <b>Shop order outcome unknown</b>: { $product } to <code>{ $target }</code>, paid { $paid } by { $customer }. The bot keeps checking.
    Order no.: <code>{ $ref }</code>
shop-order-owner-topup =
    💰 <b>Balance too low for shop order</b> <code>{ $ref }</code>: { $product } (cost { $cost }).
    Your balance is { $balance }, <b>{ $missing }</b> short. The customer has paid. Top up with Deposit; the order is processed automatically once the balance is enough.
shop-order-owner-refund =
    💸 <b>A customer asks for a refund</b>: order <code>{ $ref }</code> ({ $product }), { $paid }, from { $customer }.
    To: { $bank } <code>{ $account }</code>
    Tap the button below to open the transfer; money moves only after you confirm.
shop-order-button-payout = 💸 Refund
shop-order-payout-open = The refund transfer is already open; confirm it on its transfer screen.
shop-order-payout-account = The { $bank } account <code>{ $account }</code> cannot be checked now. Please try again later.
orders-title = 🛒 <b>Shop orders</b> (newest first)
orders-empty = No orders in your online shop yet.
orders-line = { $time } · { $product } · { $target } · { $paid } · { $state } · <code>{ $ref }</code>
shop-order-state-draft = created
shop-order-state-awaiting_payment = awaiting payment
shop-order-state-paid = paid
shop-order-state-buying = processing
shop-order-state-done = done
shop-order-state-failed = failed
shop-order-state-unknown = outcome unknown
shop-order-state-cancelling = cancelling
shop-order-state-cancelled = cancelled
shop-order-state-expired = expired
shop-order-state-refund_requested = refund asked
shop-order-state-refunding = refund in progress
shop-order-state-refunded = refunded
shop-sale-mark = online shop
report-shop-line = 🛒 From the online shop this month: { $sales ->
        [one] 1 sale
       *[other] { $sales } sales
    }, profit { $profit } (included above).
report-network-title = 🌐 <b>Network this month</b>
report-network-none = No downline sales this month yet.
report-network-total = Downlines: { $sales ->
        [one] 1 sale
       *[other] { $sales } sales
    } · turnover { $turnover } · your margin <b>{ $margin }</b>
report-network-commissions = Commissions paid to uplines: { $amount } (already taken from the margin)
report-network-level-line = • { $level }: { $sales ->
        [one] 1 sale
       *[other] { $sales } sales
    } · turnover { $turnover } · margin { $margin }
report-network-downline-line = • { $name } ({ $level }): { $sales ->
        [one] 1 sale
       *[other] { $sales } sales
    } · turnover { $turnover } · margin { $margin }
report-network-more = … and { $count ->
        [one] 1 more downline
       *[other] { $count } more downlines
    }
report-own-title = 📊 <b>Your sales</b>
report-own-spend = Paid from your wallet: <b>{ $spend }</b>
report-own-commission = Commission from your downlines: <b>{ $amount }</b>
report-own-empty = 📊 No sales of yours this month yet. The report fills in after your first sale from your wallet.

## prices
prices-alt-title = ⛔ <b>{ $name }</b> (<code>{ $code }</code>) is out of stock or out of order. Other products of the same value, cheapest first:
prices-alt-line = • <b>{ $name }</b> (<code>{ $code }</code>): cost { $cost }, sells for <b>{ $price }</b>
prices-alt-pick = Tap one to buy it; the confirm screen still comes first.
prices-alt-button = 🔁 Other products, same value
prices-alt-above = 🔁 Other products of the same value are in the previous message.
prices-below-cost = ⛔ The fixed selling price of <b>{ $name }</b> (<code>{ $code }</code>), { $fixed }, is now below its cost of { $cost }, so it is not sold (no sale at a loss). Change it with <code>/sellprice { $code } PRICE</code> or remove it with <code>/sellprice { $code } clear</code>.
prices-below-cost-notice = ⚠️ <b>Fixed selling prices below cost</b>. These products are not sold until their price is changed with /sellprice:
prices-below-cost-line = • <code>{ $code }</code>: fixed price { $fixed }, cost now { $cost }
prices-digest-title = 📈 <b>Cost changes</b> of the products you sold in the last 30 days:
prices-digest-line = { $arrow } <b>{ $name }</b> (<code>{ $code }</code>): cost { $old } → { $new }, selling price { $price }
prices-digest-line-refused = { $arrow } <b>{ $name }</b> (<code>{ $code }</code>): cost { $old } → { $new }, fixed price { $price } below cost: not sold
prices-digest-more = …and { $count } more products.
prices-digest-footer = Turn this digest off: <code>/prices digest off</code>. Change its time: <code>/prices digest 07:30</code>.
prices-digest-on = 📈 Price change digest: <b>on</b>, daily at { $time } WIB, only when something changed.
    Turn it off: <code>/prices digest off</code>. Change its time: <code>/prices digest 07:30</code>.
prices-digest-off = 📈 Price change digest: <b>off</b>. Turn it on with <code>/prices digest on</code>.
prices-digest-bad-time = ❓ Time not recognised. Example: <code>/prices digest 08:00</code> (quarter hours: 07:15, 07:30, 07:45).
prices-moved-today = ⬆️⬇️ = cost changed today.

## shop front
# The online shop: the owner's settings (/shop → 🛒 Online shop) and what customers see through the shop link.
shop-online-button = 🛒 Online shop
shop-online-what-off = turn the online shop off
shop-online-what-release = set the instant release of deposits
shop-online-owner-only = The online shop is for resellers who linked their own API key (/key).
shop-online-title = 🛒 <b>Online shop</b>: customers buy by themselves through your shop link and pay by QRIS.
shop-online-status = Status: { $status }
shop-online-status-open = ✅ open
shop-online-status-off = ⛔ off
shop-online-status-paused = ⏸ paused
shop-online-status-closed = 🌙 outside opening hours
shop-online-link = Link: { $link }
shop-online-all = All
shop-online-categories = Categories: { $list }
shop-online-operators = Operators: { $list }
shop-online-hours = Opening hours: { $hours }
shop-online-hours-always = 24 hours
shop-online-fee = QRIS fee ({ $fee }) paid by: { $payer }
shop-online-fee-customer = the customer (added to the price)
shop-online-fee-reseller = you (taken from the profit)
shop-online-release = Release QRIS funds instantly when the balance is short (the provider charges a fee): { $on }
shop-online-yes = yes
shop-online-no = no
shop-online-cap = Unpaid QRIS per day, at most: { $cap }
shop-online-contact = Contact for customers: { $contact }
shop-online-typed =
    Opening hours: <code>/shop hours 08:00-21:00</code> (remove: <code>/shop hours clear</code>)
    QRIS per day: <code>/shop cap 50</code>
    Contact: <code>/shop contact WA 0812-3456-7890</code> (remove: <code>/shop contact clear</code>)
shop-online-button-on = ▶️ Open the shop
shop-online-button-off = ⛔ Turn the shop off
shop-online-button-pause = ⏸ Pause
shop-online-button-resume = ▶️ Resume
shop-online-button-fee = 💳 QRIS fee: { $payer }
shop-online-button-step = 🔢 Rounding: { $step }
shop-online-step = What customers pay is rounded up to a multiple of { $step } (the difference adds to your profit).
shop-online-button-release-on = ⚡ Allow instant release
shop-online-button-release-off = ⚡ No instant release
shop-online-button-categories = 🗂 Categories
shop-online-button-operators = 📶 Operators
shop-online-button-link = 🔗 Link & QR
shop-online-button-new-link = ♻️ New link
shop-online-button-new-link-yes = ♻️ Yes, make a new link
shop-online-button-back = ⬅️ Back
shop-online-categories-title = 🗂 Categories the online shop sells (✅ sold). Tap to change.
shop-online-operators-title = 📶 Operators the online shop sells (✅ sold). Tap to change.
shop-online-saved = ✅ Saved.
shop-online-hours-invalid = ❌ Write the opening hours like <code>/shop hours 08:00-21:00</code> (opening and closing differ), or <code>/shop hours clear</code> for 24 hours.
shop-online-cap-invalid = ❌ Write the cap as a number 1–{ $max }, e.g. <code>/shop cap 50</code>.
shop-online-contact-too-long = ❌ The contact is too long (at most { $max } characters). Nothing was changed.
shop-online-contact-missing = ❌ Write the contact, e.g. <code>/shop contact WA 0812-3456-7890</code>, or <code>/shop contact clear</code>.
shop-online-qr-file = shop-qr
shop-online-link-caption =
    🔗 Your shop link: { $link }
    Print this QR at the counter or post it in a status: whoever scans it walks straight into your shop.
shop-online-new-link-ask = Make a new link? The old link and QR stop working at once.
shop-online-new-link-done = ✅ New link made. The old link no longer works.
shopfront-cmd-start = Open the shop
shopfront-cmd-orders = My orders
shopfront-default-name = Shop
shopfront-not-found = 🔍 Shop not found. This link is wrong or no longer works: ask the seller for the latest link.
shopfront-reseller-cannot = This is a reseller account: a reseller account cannot be a shop's customer. Open the shop link from another Telegram account.
shopfront-home-title = 🛒 <b>{ $name }</b>
shopfront-home-hint = Pick a category, or type what you are looking for (e.g. <code>pulsa 10</code>, <code>token 50</code>).
shopfront-popular = ⭐ Best sellers:
shopfront-empty = Nothing is on sale right now.
shopfront-unavailable = ⚠️ The shop cannot show its products right now. Try again in a moment.
shopfront-off = ⛔ This shop is not taking orders right now.
shopfront-paused = ⏸ This shop is taking a short break. Try again later.
shopfront-closed = 🌙 The shop is closed. Opening hours: { $open }–{ $close } WIB.
shopfront-category-title = 🗂 <b>{ $category }</b>: pick a product.
shopfront-search-title = 🔍 Results for “{ $query }”: pick a product.
shopfront-search-none = 🔍 No product for “{ $query }”. Try other words, or pick a category.
shopfront-search-none-here = 🔍 Nothing for “{ $query }” can be bought in this shop.
shopfront-search-why-soldout = ⛔ { $names }: out of stock.
shopfront-search-why-notsold = { $names }: not sold in this shop.
shopfront-search-why-belowmin = { $names }: below the smallest QRIS payment ({ $min }).
shopfront-search-nearest = The nearest in this shop, tap one to buy it:
shopfront-product-line = 🛍 <b>{ $name }</b>: { $price }
shopfront-fee-included = Price { $price } + QRIS fee { $fee }
shopfront-fee-rounded = Price { $price } + QRIS fee { $fee } + rounding { $rounding }
shopfront-product-gone = This product is not available right now. Pick another one.
shopfront-text-too-long = ❗ Too long (at most { $max } characters). Send it again.
shopfront-summary-title = 🧾 <b>Order summary</b>
shopfront-summary-target = Target: <code>{ $target }</code>
shopfront-summary-total = To pay: <b>{ $total }</b>
shopfront-button-pay = 💳 Pay with QRIS
shopfront-price-changed = ℹ️ The price changed since the summary. Check the new price below.
shopfront-button-home = 🏠 Shop
shopfront-button-orders = 📦 My orders
shopfront-button-contact = 📞 Contact
shopfront-contact = 📞 Shop contact: { $contact }
shopfront-contact-none = This shop has not written a contact yet.
shopfront-orders-title = 📦 <b>My orders</b>
shopfront-orders-none = No orders in this shop yet.
shopfront-order-line = • { $product } → <code>{ $target }</code>: { $state } ({ $when })
shopfront-order-draft = being prepared
shopfront-order-awaiting_payment = awaiting payment
shopfront-order-paid = paid, being processed
shopfront-order-buying = being processed
shopfront-order-done = successful
shopfront-order-failed = failed, your money is safe
shopfront-order-unknown = being confirmed
shopfront-order-cancelling = being cancelled
shopfront-order-cancelled = cancelled
shopfront-order-expired = expired
shopfront-order-refund_requested = awaiting refund
shopfront-order-refunding = being refunded
shopfront-order-refunded = refunded
shopfront-customer-only = This is a shop customer chat: that command is not available here. Tap 🏠 Shop to shop.
shopfront-no-keys = 🔒 That message was deleted: API keys are not used in a shop customer chat.
shopfront-target-like-key = 🔒 That message was deleted: it looks like an API key, not a target number. Send the target number again, or tap ❌ Cancel.
shopfront-hint = Type what you are looking for, or tap /menu to see the shop.
shopfront-help =
    🛒 <b>How to shop</b>
    1. Pick a category or type a product (e.g. <code>pulsa 10</code>).
    2. Tap the product, then send the target number.
    3. Check the summary, tap 💳 Pay with QRIS and pay from any bank or e-wallet app.
    The order is processed automatically once the payment arrives.

    /menu: the shop · /orders: my orders · /cancel: cancel · /language: change language

## Downline network (/downlines, /statement; docs/wallets.md)
cmd-downline = Your downlines: wallets, levels, invitations
cmd-mutasi = Wallet statement (downlines)
cmd-tarik = Withdraw from wallet (downlines)
downline-title = 👥 <b>Your downlines</b> ({ $count })
downline-none = No downlines yet. Invite one with a button below: one link for one person, valid 24 hours.
downline-line = • <b>{ $name }</b> · { $level } · wallet { $balance } (on hold { $held }) · { $sales ->
        [one] 1 sale
       *[other] { $sales } sales
    } this month · { $last }{ $state }
downline-last = active { $at }
downline-last-none = no transactions since { $since }
downline-suspended = {" "}· ⏸ suspended
downline-owed = Downline wallets hold { $owed } (their money inside your provider balance).
downline-page = Page { $page } of { $pages }
downline-button-invite = ➕ Invite a { $level } downline
downline-invite = Invitation link for a <b>{ $level }</b> downline (one person, valid until { $until }):
    { $link }
    Send it to your new downline. They buy with your API key, paid from their own wallet, at the { $level } price.
downline-full = You have reached the downline limit. Remove an inactive downline first.
downline-card = 👤 <b>{ $name }</b>{ $state }
    Level: { $level } · joined { $since }
    Wallet balance: <b>{ $balance }</b>
    On hold (sales in progress): { $held }
    Available: { $available }
downline-button-add = ➕ Add balance
downline-button-take = ➖ Take balance
downline-button-level = Make { $level }
downline-button-suspend = ⏸ Suspend
downline-button-resume = ▶️ Resume
downline-button-remove = 🗑 Remove
downline-remove-not-empty = The wallet still holds money or a sale in progress. Take the balance first (with a reason), then remove.
downline-removed = { $name } is no longer your downline.
downline-removed-you = You are no longer a downline. Your wallet is empty; no money was lost.
downline-level-changed-you = Your level is now <b>{ $level }</b>. The new prices count from your next purchase.
downline-suspended-you = ⏸ Your upline has paused your selling. Your wallet balance is safe.
downline-resumed-you = ▶️ You can sell again.
downline-adjust-ask-in = How much to add to <b>{ $name }</b>'s wallet, and why? Reply to this message, e.g. <code>50000 cash</code>
downline-adjust-ask-out = How much to take from <b>{ $name }</b>'s wallet, and why? Reply to this message, e.g. <code>20000 correction</code>
downline-adjust-placeholder = 50000 cash
downline-adjust-bad = Write the amount, then the reason, e.g. <code>50000 cash</code> (at most Rp100,000,000). No balance changed.
    Reply to this message with the amount and the reason.
downline-adjust-confirm-in = Add <b>{ $amount }</b> to <b>{ $name }</b>'s wallet?
    Reason: { $reason }
downline-adjust-confirm-out = Take <b>{ $amount }</b> from <b>{ $name }</b>'s wallet?
    Reason: { $reason }
downline-adjust-done = ✅ Recorded in the wallet.
downline-adjust-short = Not done: only { $available } can be taken (the wallet balance less what is on hold for sales in progress). The wallet is unchanged.
downline-adjust-over = <b>{ $name }</b>'s wallet holds only { $available }, so { $amount } cannot be taken. The wallet is unchanged.
    Reply to this message with at most { $available } and the reason.
downline-adjust-over-held = <b>{ $name }</b>'s wallet holds { $balance }, { $held } of it on hold for sales in progress: only { $available } can be taken, so { $amount } cannot. The wallet is unchanged.
    Reply to this message with at most { $available } and the reason.
downline-adjust-nothing = <b>{ $name }</b>'s wallet has nothing that can be taken (it holds { $balance }, { $held } on hold for sales in progress). The wallet is unchanged.
downline-adjust-cancelled = ❌ Cancelled. <b>{ $name }</b>'s wallet is unchanged.
downline-welcome = 👋 You are a <b>{ $level }</b> downline. Sell with /topup or /bill; your wallet is in /balance, its entries in /statement.
downline-joined = ✅ You are now a <b>{ $level }</b> downline. Top up your wallet yourself with /deposit (QRIS) or ask your upline to fund it, then sell with /topup. Balance: /balance.
downline-joined-owner = 👥 { $name } joined as a { $level } downline. Fund their wallet in /downlines.
downline-join-unknown = This invitation link is unknown. Ask your upline for a new one.
downline-join-expired = This invitation link has expired. Ask your upline for a new one.
downline-join-used = This invitation link was already used. Ask your upline for a new one.
downline-join-self = This is your own invitation link: send it to your new downline.
downline-join-owner = This chat has its own API key or works as staff, so it cannot be a downline.
downline-join-taken = You are already a downline in another network.
downline-join-already = You are already a downline in this network.
downline-join-full = This network is full. Contact your upline.
downline-join-gone = The upline who invited you can no longer invite. Ask your upline for a new link.
downline-joined-sub = ✅ You are now a downline of <b>{ $upline }</b>. Top up your wallet yourself with /deposit (QRIS) or ask your upline to fund it, then sell with /topup. Balance: /balance.
downline-joined-upline = 👥 { $name } joined as your downline. See /downlines.
downline-line-via = { $indent }↳ <b>{ $name }</b> · via { $upline } · wallet { $balance } (on hold { $held }) · { $sales ->
        [one] 1 sale
       *[other] { $sales } sales
    } this month · { $last }{ $state }
downline-card-via = Downline of: { $upline } (pays that upline's price plus its markup)
downline-may-invite = {" "}· may invite
downline-button-may-invite = ✅ May invite
downline-button-no-invite = 🚫 May not invite
downline-may-invite-you = ✅ Your upline allows you to invite downlines of your own. Open /downlines.
downline-no-invite-you = Your upline no longer allows you to invite new downlines. Your existing downlines keep working.
downline-not-allowed = Inviting downlines is only for the network's owner and the downlines their upline allows. Ask your upline.
downline-too-deep = Not possible: a network goes at most 3 levels below the owner, and you are on the last one. A new downline must be invited by your upline.
downline-has-downlines = This downline still has downlines of its own. Remove them first.
downline-own-title = 👥 <b>Your downlines</b> ({ $count })
downline-own-line = • <b>{ $name }</b>{ $state }
downline-own-none = No downlines yet. Invite one with the button below: one link for one person, valid 24 hours.
downline-own-markup = Your markup for your downlines: <b>{ $markup }</b> on top of your price (your commission on each of their sales). Change: <code>/downlines markup 700</code> or <code>/downlines markup 2%</code>.
downline-own-markup-saved = ✅ Your markup for your downlines is now <b>{ $markup }</b>. It counts from their next purchase.
downline-own-button-invite = ➕ Invite a downline
downline-own-card = 👤 <b>{ $name }</b>{ $state }
    Joined { $since }
downline-own-invite = Invitation link for your downline (one person, valid until { $until }):
    { $link }
    Their price: your price plus your markup.
wallet-show = 👛 <b>Your wallet</b> ({ $level } level)
    Balance: <b>{ $balance }</b>
    On hold (sales in progress): { $held }
    Available: <b>{ $available }</b>
    Entries: /statement
wallet-credited-you = 👛 <b>{ $amount }</b> was added to your wallet ({ $reason }). Available: { $available }.
wallet-debited-you = 👛 <b>{ $amount }</b> was taken from your wallet ({ $reason }). Available: { $available }.
wallet-only-downlines = The wallet statement is for downlines. Your account balance is in /balance, its sales in /history.
wallet-no-entries = Your wallet has no entries yet.
wallet-no-more = No older entries.
wallet-entries-title = 👛 <b>Wallet statement</b> (newest first)
wallet-entry = { $at } · { $sign }{ $amount } { $what }{ $note } → { $balance }
wallet-button-more = ⬇️ Older
wallet-button-csv = 📄 CSV
wallet-csv-caption = 📄 Wallet statement: { $count ->
        [one] 1 row
       *[other] { $count } rows
    }, oldest first, with the balance after each.
wallet-entry-deposit = deposit
wallet-entry-adjust = by your upline
wallet-entry-purchase = purchase
wallet-entry-commission = commission
wallet-entry-refund = refund
wallet-entry-payout = payout
wallet-short = Not enough in your wallet: the price is { $price }, { $available } is available. Top up your wallet with /deposit, or ask your upline to fund it.
wallet-suspended = ⏸ Your upline has paused your selling. Your wallet balance is safe.
wallet-upline-short = Your upline's balance is too low for this sale just now. Your wallet was not charged; your upline has been told. Try again later.
wallet-upline-short-owner = ⚠️ Your downline { $name } could not buy: your balance is { $missing } short. Top up with /deposit.
wallet-deposit-credit = 👛 Into your wallet: <b>{ $credit }</b> (the amount less the QRIS fee), once the payment is received.
wallet-deposit-line = Into your wallet: <b>{ $credit }</b>
wallet-deposit-on-paid = Your wallet is credited once the payment is received; the bot will tell you.
wallet-deposit-paid = ✅ <b>Deposit paid</b>: { $credit } went into your wallet.
wallet-deposit-paid-balance = ✅ <b>Deposit paid</b>: { $credit } went into your wallet. Wallet balance now { $balance }.
wallet-deposit-owner = 👛 { $name } paid a QRIS deposit: { $amount } went into their wallet.
wallet-deposit-caption-paid = ✅ <b>PAID</b>: this deposit was paid and went into your wallet.
wallet-deposit-credited-you = 👛 <b>{ $amount }</b> was added to your wallet (deposit <code>{ $ref }</code>). Wallet balance now { $balance }.
wallet-deposit-status-paid = Paid, credited to the downline's wallet
wallet-deposit-of = into { $name }'s wallet
# A downline's wallet payout (/withdraw, docs/wallets.md).
payout-only-downlines = Payouts are for downlines: their wallet's money is sent through their upline. To send from your own balance, use /transfer.
payout-choose-bank = 👛 <b>Withdraw from your wallet</b>. Choose the bank or e-wallet to send to:
payout-nothing = Nothing to withdraw yet: your wallet has { $available } available, the minimum withdrawal is { $min }. Details: /balance.
payout-ask-amount = How much to withdraw? Available: { $available }. At least { $min }. Type it in rupiah, e.g. 50000 or 50rb.
payout-amount-too-small = The minimum withdrawal is { $min }. Type the amount again, or /cancel.
payout-amount-short = ❌ Your wallet has { $available } available, not enough for { $amount }. Nothing was held. Type a smaller amount, or /cancel.
payout-confirm =
    👛 <b>Withdraw { $amount } from your wallet</b>
    To: { $bank } <code>{ $number }</code>, holder { $holder }

    Once you confirm, { $amount } is held in your wallet until your upline confirms the transfer. Your upline pays the admin fee.
payout-held = ✅ Request sent to your upline. { $amount } is held in your wallet until your upline confirms (24 hours at most; without a confirmation the money comes back). Available now: { $available }. Ref: <code>{ $ref }</code>
payout-owner-request =
    👛 <b>{ $name }</b> asks to withdraw <b>{ $amount }</b> from their wallet to { $bank } <code>{ $number }</code>, holder { $holder }.
    The money is already held in their wallet. Open the transfer to see the fee and confirm it with your balance (the admin fee is yours; their wallet is charged { $amount } only), or decline. Without a confirmation within 24 hours the request is cancelled and the money goes back to their wallet.
payout-owner-via-h2h = Asked over H2H by the downline's system (ref_id <code>{ $ref }</code>).
payout-button-open = 💸 Open transfer
payout-button-decline = 🚫 Decline
payout-declined-owner = Declined: { $amount } is back in { $name }'s wallet.
payout-gone = This payout request is no longer open.
payout-confirm-only-owner = Only your upline can confirm this payout's transfer.
payout-success-you = ✅ Your payout of <b>{ $amount }</b> to { $bank } <code>{ $number }</code> went through. Wallet balance: { $balance } ({ $available } available).
payout-failed-you = ❌ Your payout of { $amount } to { $bank } <code>{ $number }</code> failed; the money is back in your wallet. Wallet balance: { $balance } ({ $available } available).
payout-declined-you = 🚫 Your upline declined your payout of { $amount }; the money is back in your wallet. Wallet balance: { $balance } ({ $available } available).
payout-expired-you = ⌛ Your upline did not confirm your payout of { $amount } within 24 hours, so it was cancelled; the money is back in your wallet. Wallet balance: { $balance } ({ $available } available).
wallet-upline-short-owner-refused = ⚠️ Your downline { $name } could not buy: the provider refused it, your balance is too low. Top up with /deposit.
wallet-receipt-paid = 👛 Paid from your wallet: { $price }. Left in your wallet: { $left }
wallet-receipt-back = 👛 { $price } is back in your wallet. Left in your wallet: { $left }
wallet-receipt-held = 👛 From your wallet: { $price }, held until the outcome is known. Available: { $left }
audit-act-downline_invited = Downline invited
audit-act-downline_joined = Downline joined
audit-act-downline_changed = Downline changed
audit-act-downline_removed = Downline removed
audit-act-wallet_adjusted = Downline wallet adjusted
audit-act-pin_set = Transaction PIN set
audit-act-pin_changed = Transaction PIN changed
audit-act-pin_reset = PIN reset with the API key
audit-act-pin_locked = Money-out locked (5 wrong PINs)
audit-act-pin_frozen = Money-out frozen ("Not me")
audit-act-limit_changed = PIN or money-out limit changed

## Transaction PIN (/pin, docs/pin.md)
cmd-pin = Transaction PIN and money-out limits
pin-intro = 🔐 A <b>transaction PIN</b> protects your balance if someone takes your Telegram account: transfers, invitations, changing the API key and downline wallets ask for it. Pick 6 digits that are hard to guess.
pin-keypad-new = Type a new PIN (6 digits), then tap ✅.
pin-keypad-repeat = Type the new PIN once more, then tap ✅.
pin-keypad-act = 🔐 Enter your PIN for: <b>{ $what }</b>, then tap ✅.
pin-keypad-cancelled = No PIN entered. Nothing was done.
pin-keypad-expired = This PIN keypad is no longer valid. Start again.
pin-need-digits = The PIN has { $count } digits.
pin-weak = ⚠️ That PIN is easy to guess (123456, 654321 or one digit repeated). Pick another.
pin-mismatch = ⚠️ The two PINs differ. Type the new PIN again from the start.
pin-saved = ✅ PIN saved. From now on transfers and other sensitive acts ask for it. Set a daily limit: /pin limit 5m
pin-changed = ✅ PIN changed.
pin-right = ✅ PIN correct.
pin-wrong = ❌ Wrong PIN. { $left } tries left before money-out is locked.
pin-refused-locked = 🔒 5 wrong PINs. Transfers and sensitive acts are locked until { $until }. Sales that need no PIN go on.
pin-refused-reset = 🔒 The PIN was just reset with the API key. Money-out is held until { $until } (24 hours) for safety.
pin-refused-frozen = 🧊 Money-out is frozen after "Not me". Set a PIN with /pin, then enter it to unfreeze.
pin-refused-limit = ⛔ Over the daily money-out limit of { $limit }. Left today: { $left }. Nothing was sent.
confirm-over-limit-next = { $none ->
        [yes] Transfer again tomorrow.
       *[no] Send at most { $left } today with /transfer, or the rest tomorrow.
    } Change the limit with /pin limit (a raise counts 24 hours later).
pin-for-transfer = Transfer
pin-for-purchase = Purchase of { $amount } (above the PIN threshold)
pin-for-change = Change PIN
pin-for-settings = Change PIN limits
pin-for-key = Replace or remove the API key
pin-for-staff-invite = Invite staff
pin-for-downline-invite = Invite a downline
pin-for-wallet = Change a downline's wallet
pin-for-payout = Withdraw from your wallet
pin-for-member-reset = Reset a member's PIN
pin-for-staff-role = Change a staff role
pin-for-downline-change = Change a downline
pin-off = none
pin-settings = 🔐 <b>Transaction PIN is on.</b>
    Purchases ask the PIN above: { $above }
    Daily money-out limit: { $limit }
pin-limit-waiting = The limit rises to { $limit } from { $from }.
pin-settings-how = Change: <code>/pin buy 500k</code> (purchases above this ask the PIN), <code>/pin limit 5m</code> (money-out per day), or <code>off</code>. Forgot the PIN? Send your API key again in this chat.
pin-set-first = Set a PIN first with /pin.
pin-above-set = ✅ Purchases above { $amount } now ask the PIN.
pin-limit-set = ✅ Daily money-out limit: { $limit }, from now.
pin-limit-later = ⏳ The daily money-out limit of { $limit } counts from { $from } (a raise waits 24 hours). Until then the old limit holds.
pin-button-change = 🔁 Change PIN
pin-button-above = 🛒 Purchase PIN threshold
pin-button-limit = 💸 Daily money-out limit
pin-button-preset-off = 🚫 Off
pin-button-own = ✏️ Type your own
pin-type-own = Type { $what ->
    [beli] <code>/pin buy 750k</code> (purchases above this ask the PIN)
   *[batas] <code>/pin limit 3m</code> (money-out per day)
} with your amount.
pin-button-not-me = 🚫 Not me
pin-button-reset-member = 🔐 Reset PIN
pin-not-you = Not you? Tap "Not me": money-out is frozen at once.
pin-told-set = 🔐 Transaction PIN set.
pin-told-changed = 🔐 Transaction PIN changed.
pin-told-reset = 🔐 PIN reset with the API key. Money-out is held until { $until }.
pin-told-locked = 🔒 5 wrong PINs. Money-out is locked until { $until }.
pin-told-above = 🔐 Purchases ask the PIN above: { $amount }.
pin-told-limit = 🔐 Daily money-out limit changed to { $limit }{ $later ->
    [yes] , counting in 24 hours.
   *[no] .
}
pin-told-transfer = 💸 Transfer of { $amount } to { $bank } { $number } confirmed.
pin-told-wallet = 💸 A downline's wallet changed by { $amount }.
pin-told-staff-invite = 👥 A staff invitation was made.
pin-told-downline-invite = 👥 A downline invitation was made.
pin-told-staff-role = 👥 Staff member { $name } is now { $role }.
pin-told-downline = 👥 Downline { $name }: { $change ->
    [level] level changed to { $level }
    [suspended] suspended
    [resumed] active again
    [removed] removed
    [may-invite] may invite
   *[no-invite] may not invite
}.
pin-told-key = 🔑 API key { $what ->
    [removed] removed.
   *[replaced] replaced.
}
pin-frozen = 🧊 Money-out is frozen. Enter your PIN at the next act to unfreeze. Secure your Telegram account now (Settings > Devices).
pin-frozen-no-pin = 🧊 Money-out is frozen. Set a PIN with /pin to unfreeze. Secure your Telegram account now (Settings > Devices).
pin-reset-done = 🔐 Your API key matches: the PIN is removed. Money-out is held until { $until } (24 hours). Set a new PIN with /pin.
pin-nag = 💡 No transaction PIN yet: whoever holds your Telegram can transfer your balance. Set one with /pin.
pin-intro-member = 🔐 <b>Your own transaction PIN</b>: your withdrawals and invitations ask for it, so whoever holds your Telegram cannot use them. Pick 6 digits that are hard to guess.
pin-saved-member = ✅ PIN saved. Forgot it? Ask your upline to reset it.
pin-member-settings = 🔐 <b>Your transaction PIN is on.</b> Forgot it? Ask your upline to reset it.
pin-told-locked-member = 🔒 { $name } entered a wrong PIN 5 times. Their money-out is locked until { $until }. If they forgot it, open their card and tap Reset PIN.
pin-member-reset = 🔐 { $name }'s PIN is removed. They can set a new one with /pin.
pin-member-reset-you = 🔐 Your upline removed your PIN. Set a new one with /pin.
pin-intro-staff = 🔐 <b>Your own transaction PIN</b>. No act of a cashier or shop admin asks for it yet (transfers, refunds and payouts are confirmed by the owner); it will cover the acts protected later. Pick 6 digits that are hard to guess.
pin-saved-staff = ✅ PIN saved. Forgot it? Ask the owner to reset it.
pin-staff-settings = 🔐 <b>Your transaction PIN is on.</b> Forgot it? Ask the owner to reset it.
pin-staff-reset-you = 🔐 The owner removed your PIN. Set a new one with /pin.
pin-new-account = 🆕 New account: never paid from this account before. Check the number and the holder.

# H2H: a downline's own system over the provider's API (docs/h2h.md)
report-network-h2h = ↳ over H2H: { $sales } { $sales ->
    [one] sale
   *[other] sales
} · turnover { $turnover } (included above)
cmd-h2h = H2H access for your own system (downlines)
downline-card-h2h-on = H2H access: on
downline-card-h2h-off = H2H access: off
downline-button-h2h-on = 🔌 H2H access: turn on
downline-button-h2h-off = 🔌 H2H access: turn off
audit-act-h2h_key_made = H2H key made
audit-act-h2h_key_retired = old H2H key retired
audit-act-h2h_ips_changed = H2H IP list changed
pin-for-h2h-key = Make a new H2H key
pin-for-h2h-ips = Change the H2H IP list
h2h-not-downline = /h2h is for downlines: their own system connects to their upline over H2H.
h2h-off = Your upline has not turned on H2H access. Ask your upline to turn on "H2H access" on your card (/downline).
h2h-on-you = 🔌 Your upline turned on H2H access. Open /h2h to make a key and set your IPs.
h2h-off-you = 🔌 Your upline turned off H2H access: your key no longer works.
h2h-title = 🔌 <b>H2H access</b>
h2h-base-url = Base URL for your system: <code>{ $url }</code>
h2h-base-url-none = Base URL: none yet (your upline's bot has no PUBLIC_URL). Contact your upline.
h2h-key-none = Key: not made yet
h2h-key-active = Key: active, made { $at } (shown only once, when made)
h2h-ips = Allowed IPs: { $ips }
h2h-ips-none = Allowed IPs: none yet (every call is refused)
h2h-callback = Callback URL: { $url }
h2h-callback-none = Callback URL: not set
h2h-how = Set IPs (at most { $max }): <code>/h2h ip 203.0.113.9 198.51.100.7</code>
    Set the callback (https): <code>/h2h callback https://example.com/callback</code>
h2h-button-new-key = 🔑 Make a new key
h2h-key-new = 🔑 Your H2H key (shown only once, save it now):
    <code>{ $key }</code>
h2h-key-new-replaced = 🔑 Your new H2H key (shown only once, save it now):
    <code>{ $key }</code>
    The old key no longer works.
h2h-key-next = Next: allow your server's IP with <code>/h2h ip &lt;ip&gt;</code>, then set the callback URL with <code>/h2h callback &lt;url&gt;</code>.
h2h-usage = Unknown /h2h command: { $sub }. Use <code>/h2h</code>, <code>/h2h ip &lt;ip&gt;</code> or <code>/h2h callback &lt;url&gt;</code>.
h2h-ips-bad = ❌ Not an IP address: { $bad }. The IP list was not changed.
h2h-ips-too-many = ❌ At most { $max } IPs. The IP list was not changed.
h2h-ips-saved = ✅ Allowed IPs: { $ips }
h2h-ips-cleared = ✅ IP list emptied: every call is refused until you add one.
h2h-callback-bad = ❌ The callback URL must be https (e.g. https://example.com/callback). Not changed.
h2h-callback-saved = ✅ Callback URL: { $url }
h2h-callback-cleared = ✅ Callback URL removed.
