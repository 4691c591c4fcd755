"""Bytes and signatures, knowing no game: canonical JSON, keys, DSSE envelopes, dice chains, the
archive's file formats, a player's private local state and atomic file writes."""
