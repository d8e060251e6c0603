"""Small web helpers shared by every app: the bottom layer beside `rules_check`, importing no app."""
