"""The default rules, registered first on every table so any other rule overrides them."""
