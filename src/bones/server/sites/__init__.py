"""A site of many processes over Redis: which process holds which table (leases), the
channels between processes, and the relays that serve a socket whose table another
process holds."""
