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
bill-provider-note = ℹ️ { $note }
bill-number-not-digits = A customer number has digits only (spaces and dashes are fine). Type the number again, or press Cancel.
bill-number-length = A customer number has { $min } to { $max } digits; you typed { $length }. Check it and type it again.
bill-not-found =
    ❌ The provider says: { $message }
    This number is not registered with { $service }. Check the number, or make sure you picked the right service.
bill-already-paid =
    ✅ The provider says: { $message }
    There is nothing to pay for this number right now: the bill is already paid, or the new bill has not been issued yet.
bill-number-other = Type another customer number, or press Cancel.
bill-retry-or-other = Press Try again to check the same number, type another number, or press Cancel.

bill-line-number = Customer number: { $number }
bill-line-name = Customer name: { $name }
bill-line-tariff = Tariff/power: { $tariff } / { $power }
bill-line-participants = Participants: { $count }
bill-line-periods = Periods ({ $sheets ->
        [one] 1 sheet
       *[other] { $sheets } sheets
    }):
bill-period = • { $period }: { $amount }
bill-period-penalty = • { $period }: { $amount } + late fee { $penalty }
bill-period-only = • { $period }
bill-line-bill = Bill: { $amount }
bill-line-admin = Admin fee: { $amount }
bill-line-total = <b>Total the customer owes: { $amount }</b>
bill-line-cost = Your cost (debited from your balance): <b>{ $amount }</b>

bill-low-balance = Your balance is { $balance } and this bill costs { $cost }. Top up with /deposit, then press Try again (the bill will be checked again).
bill-low-balance-short = Top up with /deposit, then press Try again (the bill will be checked again).
