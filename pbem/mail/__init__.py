"""Email drafts of a game (:mod:`pbem.mail.draft`): what a player sends, built from templates."""
