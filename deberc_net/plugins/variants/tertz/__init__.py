"""Tertz (терц), the second game of the sources (docs/rules.md, "Tertz"): a whole game of
its own on the engine's hooks. ``combos`` finds its combinations, ``cards`` its card
values and play, ``deal`` is its ``Deal`` (talon, drawing, breaking the deck),
``plugin`` the variant and its option; docs/plugins.md, "Writing a whole new game"."""
