"""Variants (one per table) and the rules that come with a player count."""
