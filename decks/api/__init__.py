"""The decks app's API by role: the checker (checker) and saved decks (decks)."""
