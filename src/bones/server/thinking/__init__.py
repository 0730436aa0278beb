"""The bots' work: the decisions and hints of thinking bots in worker processes of the
server's own or of any ``bones worker`` on Redis, and the analyses of finished games."""
