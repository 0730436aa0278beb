"""Sockets: what a client may send (the allowance every WebSocket shares, flood control)
and how the server sends to it without waiting on a client that stopped reading."""
