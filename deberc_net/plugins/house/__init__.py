"""Table options (house rules), one plugin each."""
