"""A game's emails: what each says and carries (:mod:`pbem.mail.compose`), the message itself built
from templates (:mod:`pbem.mail.draft`), and sending and fetching them (:mod:`pbem.mail.transport`)."""

MAX_EML_BYTES = 24 * 1024 * 1024
"""The largest email file pbem reads (here, not in :mod:`pbem.mail.draft`, so that reading a JSON
file another player sent does not import the email and template machinery) [28]."""
