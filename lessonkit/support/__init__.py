"""Support: what every stage uses (errors, words, numbers, the cache, paths, the session)."""
