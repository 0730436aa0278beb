"""Meeting other players: the lobby's live list and chat, and quick match (the queue of
seeks and the matcher that seats them)."""
