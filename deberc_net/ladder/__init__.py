"""Bot-versus-bot ladders: schedules of duplicate boards, the runner, statistics."""
