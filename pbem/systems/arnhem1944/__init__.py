"""Vae Victis *Arnhem 1944* (N. Stratigos; seed 003): a game of activations over Nijmegen-Arnhem."""
