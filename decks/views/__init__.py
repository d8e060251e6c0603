"""The decks app's pages by role: the checker (checker) and saved decks (decks)."""
