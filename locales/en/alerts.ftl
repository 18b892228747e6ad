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
