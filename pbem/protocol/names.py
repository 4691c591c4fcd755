"""Every file name of a game directory (and of this machine's state of a game), and its pattern:
the one place they are spelled. Archive files are signed and kept for ever; derived files (maps,
email drafts) are rewritten from them and listed in ``derived.sha256``."""

from __future__ import annotations

from pbem.lazy_re import LazyPattern

# the archive -------------------------------------------------------------------------------------
GENESIS = "genesis.json"
SCENARIO = "scenario.json"
PUBLICATION = "publication.json"
"""Game Control's publication of every sealed order, after a game with hidden information [P10]."""

JOIN_RE = LazyPattern(r"^join-([A-Za-z0-9_]{1,16})\.json\Z", "join-")
MOVE_RE = LazyPattern(r"^move-(\d{4})-([A-Za-z0-9_]{1,16})\.json\Z", "move-")
TURN_RE = LazyPattern(r"^turn-(\d{4})\.json\Z", "turn-")
RECEIPT_RE = LazyPattern(r"^receipt-(\d{4})-([A-Za-z0-9_]{1,16})\.json\Z", "receipt-")
REDO_RE = LazyPattern(r"^move-(\d{4})-([A-Za-z0-9_]{1,16})-redo([1-9]\d{0,2})\.json\Z", "move-")
"""The move that replaces a move taken back by mutual consent (``move-NNNN-S-redoR.json``: the
R-th take-back of step NNNN); the move it replaces stays in the archive, withdrawn."""
TAKEBACK_RE = LazyPattern(r"^takeback-(\d{4})-([A-Za-z0-9_]{1,16})-([1-9]\d{0,2})\.json\Z", "takeback-")
"""A request to take back the newest move (signed by its author)."""
CONSENT_RE = LazyPattern(r"^consent-(\d{4})-([A-Za-z0-9_]{1,16})-([1-9]\d{0,2})\.json\Z", "consent-")
"""The opponent's consent to a take-back (signed by the opponent)."""


def join_name(side: str) -> str:
    return f"join-{side}.json"


def move_name(step: int, side: str) -> str:
    return f"move-{step:04d}-{side}.json"


def turn_name(step: int) -> str:
    return f"turn-{step:04d}.json"


def receipt_name(step: int, side: str) -> str:
    return f"receipt-{step:04d}-{side}.json"


def redo_name(step: int, side: str, number: int) -> str:
    """The move that replaces the one withdrawn by take-back ``number`` of ``step``."""
    return f"move-{step:04d}-{side}-redo{number}.json"


def move_file(step: int, side: str, version: int) -> str:
    """The file of a step's move: version 0 is ``move-NNNN-S.json``; version R (after R
    take-backs of that step) its redo."""
    return move_name(step, side) if version == 0 else redo_name(step, side, version)


def takeback_name(step: int, side: str, number: int) -> str:
    return f"takeback-{step:04d}-{side}-{number}.json"


def consent_name(step: int, side: str, number: int) -> str:
    return f"consent-{step:04d}-{side}-{number}.json"


def is_turn_name(name: str) -> bool:
    """Whether ``name`` is a turn file's name (``turn-NNNN.json``)."""
    return TURN_RE.fullmatch(name) is not None


def is_game_file(name: str) -> bool:
    """Whether ``name`` is one pbem reads or writes in a game directory: an archive file (genesis,
    scenario, publication, join, move, redo, turn, receipt, take-back, consent) or a derived one
    (``derived.sha256``, ``board.svg``, a ``map-*.svg``, a ``mail-*.eml``). Such a name must be a
    plain file of the directory itself: a link standing there is refused, never followed."""
    if name in (GENESIS, SCENARIO, PUBLICATION, MANIFEST, BOARD):
        return True
    if name.startswith(("map-", "mail-")):
        return name.endswith(".svg" if name.startswith("map-") else ".eml")
    return any(p.fullmatch(name) is not None
               for p in (JOIN_RE, MOVE_RE, TURN_RE, RECEIPT_RE, REDO_RE, TAKEBACK_RE, CONSENT_RE))


# derived files -----------------------------------------------------------------------------------
MANIFEST = "derived.sha256"
BOARD = "board.svg"
"""The board of a game (terrain, roads, rivers, hex numbers, places) drawn once, which the maps of
pbem 0.2 placed from this file (``<image href>``); maps drawn since draw their terrain themselves,
and a new game has no board file."""
MAP_RE = LazyPattern(r"^map-(\d{4,})\.svg\Z", "map-")
"""The map after a step (only the newest step's is kept: older ones are drawn again on demand)."""
MOVE_MAIL_RE = LazyPattern(r"^mail-(\d{4,})\.eml\Z", "mail-")
"""The email of a move signed here (kept until every other side has answered it)."""
MAIL_GLOB = "mail-*.eml"
MAIL_PREFIX = "mail-"
MOVE_PREFIX = "move-"
INVITE_MAIL_GLOB = "mail-invite-*.eml"
PUBLICATION_MAIL = "mail-publication.eml"


def map_name(step: int) -> str:
    """The map after ``step`` (``map-NNNN.svg``)."""
    return f"map-{step:04d}.svg"


def side_map_name(step: int, side: str) -> str:
    """``side``'s own map after ``step`` in a game with hidden information (the viewer's)."""
    return f"map-{step:04d}-{side}.svg"


def mail_name(step: int) -> str:
    """The email that carries the move of ``step`` (``mail-NNNN.eml``)."""
    return f"mail-{step:04d}.eml"


def map_around_name(step: int, centre: str) -> str:
    """The email's attached map of ``step`` framed on the hex ``centre``."""
    return f"map-{step:04d}-around-{centre}.svg"


def invite_mail_name(side: str) -> str:
    return f"mail-invite-{side}.eml"


def join_mail_name(side: str) -> str:
    return f"mail-join-{side}.eml"


def receipt_mail_name(step: int, side: str) -> str:
    return f"mail-receipt-{step:04d}-{side}.eml"


def takeback_mail_name(file_name: str) -> str:
    """The email carrying a take-back request or consent (``mail-takeback-0005-DE-1.eml`` for
    ``takeback-0005-DE-1.json``) [27]."""
    return f"mail-{file_name.removesuffix('.json')}.eml"


def remind_mail_name(step: int, side: str, n: int) -> str:
    return f"mail-remind-{step:04d}-{side}-{n}.eml"


# this machine's state of a game (``<PBEM_HOME>/games/<GAME_ID>/``) ---------------------------------
CHECKPOINT = "checkpoint.json"
DRAFTED = "drafted"
"""One record per email pbem drafted into the game directory on this machine (its name and the
hash of its bytes): what ``pbem send`` may send (:func:`pbem.protocol.localstate.drafted_here`)."""
