"""The events app's pages by role: collecting lists (lists) and the tournament day (day)."""
