"""Assemble: drafts filled once with figures, data, code and the Content-Security-Policy; weighed."""
