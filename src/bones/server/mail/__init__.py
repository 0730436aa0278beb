"""Mail: an SMTP server the operator gives (``--smtp``), the outbox every process sends
from, the letters in the reader's language, and the addresses players give to get a
password back (``addresses``)."""
