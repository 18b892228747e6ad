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
prices-available = ✅ Available
prices-empty = ⛔ Out of stock (cannot be bought right now)
prices-search-title = 🔎 Results for "<b>{ $query }</b>": { $count } products
prices-search-none = 🔎 No product matches "{ $query }". Try other words (e.g. <code>tsel 10</code>, <code>pln 50</code>) or see all categories.
prices-search-narrow = Too many results: add words to narrow the search.
prices-bills-title = 🧾 <b>Bill services (postpaid)</b>. Admin fee per bill sheet:
prices-bill-line = • <b>{ $name }</b> (<code>{ $code }</code>): admin { $admin }
prices-bill-line-empty = • ⛔ <b>{ $name }</b> (<code>{ $code }</code>): admin { $admin }, currently unavailable
prices-bills-none = No bill services yet.
prices-refreshed = 🔄 Price list refreshed.
prices-refreshed-all = 🔄 Every cached price list was dropped; the next request fetches fresh prices.
prices-list-changed = The price list has changed. Please choose again.

## Purchase
topup-product-line = 🛒 <b>{ $name }</b> (<code>{ $code }</code>): <b>{ $price }</b>
topup-note-line = ℹ️ Note: { $note }
topup-unknown-code = ❓ No product has the code <code>{ $code }</code>. See product codes in /prices, or search with words, e.g. <code>/prices tsel 10</code>.
topup-empty = ⛔ <b>{ $name }</b> (<code>{ $code }</code>) is out of stock, so it cannot be bought right now. Try another product in /prices.
topup-empty-alert = ⛔ { $name } is out of stock and cannot be bought right now.
topup-confirm-product = Product
topup-confirm-code = Code
topup-confirm-target = Target
topup-confirm-price = Price
topup-price-changed = 💱 The price has changed: now <b>{ $price }</b> (was { $old }). Press "Try again" to buy at the new price.
topup-now-empty = ⛔ { $name } is now out of stock.

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
target-pln-invalid = ❗ A PLN meter number or customer id has 10–13 digits (meter numbers 11–12, customer ids 12). Send it again.
target-game-server-invalid = ❗ Send the id and server, e.g. <code>12345678 1234</code>, <code>12345678(1234)</code> or <code>12345678|1234</code>.
target-text-length = ❗ The target must be { $min }–{ $max } characters. Send it again.
target-text-chars = ❗ The target may only contain letters, digits, spaces and . - _ ( ) # @. Send it again.
