"""The HTTP edge: the FastAPI app and its routes, the guard in front of it (headers,
Origin, body size, rate limits), signing in, profiles, the API's documentation pages."""
