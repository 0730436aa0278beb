"""People: who plays (guests, accounts, their passwords, sessions and tokens, the names
they may take), what they say (chat, reports), and what their games made of them
(ratings, statistics)."""
