"""A game's emails: what each says and carries (:mod:`pbem.mail.compose`), the message itself built
from templates (:mod:`pbem.mail.draft`), and sending and fetching them (:mod:`pbem.mail.transport`)."""
