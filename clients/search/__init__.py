"""The search bot's parts: what it saw (history), the worlds it samples (world), the
card-play solver (solver), how a world's outcome is valued (evaluate), and the decisions
(policy)."""
