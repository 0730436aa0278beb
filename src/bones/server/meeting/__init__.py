"""Meeting other players: the lobby's live list and chat, who is here (and playing
what), and quick match (the queue of seeks and the matcher that seats them)."""
