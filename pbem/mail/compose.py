"""The emails of a game, each ready to send: a move's (its narrative, the move, the turn it answers
and the map around the action), an invitation and a join, a receipt, a reminder, and Game
Control's publication; and the engine hooks that draft a move's or a receipt's email when it is
signed here. The message itself is built by :func:`pbem.mail.draft.draft_email`.

What ``mail-NNNN.eml`` holds: the email that carries **move N** to the other side, written when
move N is signed on this machine (``pbem submit``, ``pbem bot``). Its attachments are the move file,
the turn file it answers (``turn-(N-1)``, which its author computed: for a player-turn that is the
opponent's previous player-turn resolved with the dice this player's reveal completed) and that
turn's map. Its narrative tells what happened in that turn, then what move N orders. The recipient's
``pbem ingest`` of the email recomputes ``turn-(N-1)`` and must find the attached one byte for byte.

A move's email stays in the game directory until every other side has answered the move (a move of
a later step from each of them is archived: :func:`delivered`); then the next email written here
removes it (issue 28). ``pbem mail draft --step N`` writes it again, byte for byte (the same
templates), and ``pbem send`` drafts again an email it still has to send.

Every email written into the game directory is first recorded in this machine's state of the game
(:func:`write_mail`, :meth:`pbem.protocol.localstate.LocalGame.record_draft`): ``pbem send`` sends
a draft only when its name and bytes are recorded there.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import InputError
from pbem.protocol import names
from pbem.protocol.fsutil import plain_file
from pbem.render.outputs import StepView, action_crop, write_derived

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game


def write_mail(game: Game, path: Path, data: bytes, *, derived: bool = False) -> list[Path]:
    """Write the email draft ``path`` (never overwriting: :func:`pbem.protocol.fsutil.write_new`),
    its name and bytes recorded first in this machine's state of the game, the record ``pbem send``
    sends from; ``derived``: a move's email, also listed in ``derived.sha256``
    (:func:`pbem.render.outputs.write_derived`). Returns ``[path]`` when it was written now."""
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.localstate import LocalGame

    LocalGame.of(game).record_draft(path.name, data)
    if derived:
        return write_derived(path, data)
    return [path] if write_new(path, data) else []


def move_email(game: Game, step: int | None = None, *, template_dir: Path | None = None,
               drawing: int | None = None) -> bytes:
    """The email that carries move ``step`` (default: the newest move) to the other side, with the
    move file, the turn file it answers and that turn's map attached (``drawing``: the email
    drawn an older way, :data:`pbem.render.svg.canvas.DRAWING`, to write again an older pbem's email:
    its map so drawn, its files in base64 before drawing 3, and before drawing 4 a subject without
    the game's id, ``[pbem] bastogne-spearhead T1 US→DE: your move``; from drawing 4 the subject
    names the game as pbem's other emails do, ``[pbem] bastogne-spearhead 1a2b3c4d T1 US→DE: your
    move``, so two games of one scenario between the same players do not share their subjects,
    by which a mailbox such as Gmail threads)."""
    from pbem.mail.draft import draft_email, possessive

    moves = game.moves
    if not moves:
        invites = sorted(p.name for p in game.dir.glob(names.INVITE_MAIL_GLOB))
        hint = f"send {', '.join(invites)} to invite" if invites else \
            "send genesis.json and scenario.json to invite"
        raise InputError(f"{game.dir} has no move yet: nothing to send ({hint} a player)")
    if step is None:
        step = max(moves)
    msg = moves.get(step)
    if msg is None:
        have = ", ".join(str(s) for s in sorted(moves))
        raise InputError(f"no move for step {step} in {game.dir} (moves present: {have})")
    # the turn this move answers: the one before it, or in a sealed round whose messages arrive in
    # any order, the newest this directory holds before it (a later slot's commit waits for earlier ones)
    before = [s for s in game.listing.turns if s < step]
    prev = StepView(game, step - 1 if step - 1 in game.listing.turns or not before else max(before))
    sc = prev.scenario
    presenter = prev.presenter
    # the map of where the action was (the recipient's pbem draws the whole map on ingest): the
    # turn this move answers; when nothing happened there (the start of the game) and this move
    # resolved at once (a set-up: no dice), the map after this move, so the units placed are seen
    shown = prev
    # with hidden information the turn files hold no state: no map travels, each side draws its own
    view = prev.view() if presenter.has_map and not game.hidden else None
    crop = action_crop(view) if view is not None else None
    if view is not None and crop is None and step in game.listing.turns:
        shown = StepView(game, step, move=msg)
        view = shown.view()
        crop = action_crop(view)
    sender = msg.body.side
    sides = game.sides
    recipient = sides[(sides.index(sender) + 1) % len(sides)]
    everyone: str | None = None
    if game.umpire is not None and len(sides) > 2:  # sealed rounds: every message goes to every side
        recipient, everyone = "ALL", "every other side"
    narrative = presenter.narrate(sc, prev.events, prev.turn.get("rolls") or [], state=prev.turn["state"])
    score = prev.score
    standing = presenter.standing(sc, prev.turn["state"])
    if standing is not None:  # the system tells its own victory standing, not points
        score = {}
        if standing not in narrative:  # before the closing line of dice, if any
            narrative.insert(len(narrative) - (1 if prev.turn.get("rolls") else 0), standing)
    # the orders as their author's preview said them, against the turn they answer [27]
    answered = None if game.hidden else game.ruleset.load_state(sc, prev.turn["state"])
    orders = presenter.describe_move(sc, msg.body.orders, umpire=msg.body.side == game.umpire, state=answered)
    kind = msg.body.orders.get("kind") if isinstance(msg.body.orders, dict) else None
    if kind == "acknowledge":
        outcome = prev.turn.get("outcome") or {}
        next_action = f"nothing: the game is over ({outcome.get('summary', 'see the turn file')})"
        tail = "game over"
        # the final report: who won and how the points were made
        narrative += [f"Final result: {outcome.get('summary', 'game over')}"]
        narrative += [str(line) for line in outcome.get("breakdown", [])]
    else:
        next_action = (f"ingest this email (pbem ingest GAME_DIR this.eml): your pbem checks "
                       f"{possessive(presenter.side_name(sc, sender))} signature and dice, resolves these orders and "
                       f"shows you the result; then it is your decision (pbem status GAME_DIR)")
        tail = "your move"
        if everyone is not None:
            next_action = (f"ingest this email (pbem ingest GAME_DIR this.eml): your pbem checks "
                           f"{possessive(presenter.side_name(sc, sender))} signature and places the message in the "
                           "round; 'pbem status GAME_DIR' says what you owe next")
            tail = "sealed round"
    # from drawing 4 (None: the newest) the subject names the game, as every other email does
    label = f"{sc.id} {game.id[:8]}" if drawing is None or drawing >= 4 else sc.id
    subject = None
    if game.hidden:  # nothing of the state travels: say what the message is, and where to read more
        narrative, next_action, tail, round_label = _hidden_words(game, presenter, sc, msg, prev, step)
        if sender == game.umpire and isinstance(msg.body.orders, dict) and "sealed" in msg.body.orders:
            orders = [f"seals its rulings (commitment {str(msg.body.orders['sealed'])[:16]}…): nobody else can "
                      "read them until the publication after the game [P9, P10]"]
        subject = f"[pbem] {label} {round_label} {sender}→{recipient}: {tail}"
    attachments = [
        (msg.name, msg.raw, "application/json"),
        (prev.turn_path.name, prev.turn_bytes, "application/json"),
    ]
    if crop is not None and view is not None:
        from pbem.render.svg import draw

        centre, box = crop
        svg = draw(view, box=box) if drawing is None else draw(view, box=box, drawing=drawing)
        attachments.append((names.map_around_name(shown.step, centre), svg.encode("utf-8"),
                            "image/svg+xml"))
    return draft_email(
        game_id=game.id, scenario=sc, side_name=partial(presenter.side_name, sc),
        step=step, sender_side=sender, recipient_side=recipient,
        narrative=narrative, orders=orders, next_action=next_action, attachments=attachments,
        template_dir=template_dir, game_turn=presenter.game_turn(sc, prev.turn["state"]), score=score,
        text_map=drawing is None or drawing >= 3,
        sender_address=_address(game, sender),
        recipient_address=(", ".join(a for side in sides if side != sender and (a := _address(game, side)))
                           or None) if everyone else _address(game, recipient),
        subject_tail=tail, game_label=label, recipient_name=everyone, subject=subject,
    )


def email_as_written(game: Game, step: int | None = None) -> tuple[bytes, bool | None]:
    """The email of move ``step`` as pbem wrote it into this directory, drafted again (with this
    machine's templates): its map drawn the newest way, or -- when ``derived.sha256`` records
    another hash for it -- the older way that gives that hash. Returns the bytes and whether they
    equal the recorded hash (None: none recorded, e.g. a move signed elsewhere)."""
    import hashlib

    from pbem.engine import derived
    from pbem.render.svg import DRAWING

    first = move_email(game, step)
    if step is None:
        step = max(game.moves)
    expected = derived.read(game.dir).get(names.mail_name(step))
    if expected is None:
        return first, None
    if hashlib.sha256(first).hexdigest() == expected:
        return first, True
    for drawing in range(DRAWING - 1, 0, -1):
        data = move_email(game, step, drawing=drawing)
        if hashlib.sha256(data).hexdigest() == expected:
            return data, True
    return first, False


def _hidden_words(game: Game, presenter: Any, sc: Any, msg: Any, prev: Any, step: int) -> tuple[list[str], str, str, str]:
    """A sealed round's message in a game with hidden information, in words: what it is (a
    commitment, Game Control's sealed rulings, a reveal of a dice-chain value, the report), what
    the reader does next, the subject's tail and the round's label (``Turn 2, 18 September 1944,
    morning``)."""
    from pbem.protocol.canonical import MAX_TURN_BYTES, loads_strict
    from pbem.protocol.fsutil import read_regular

    sealed = prev.turn.get("sealed") or {}
    labels = sealed.get("labels") or [d.get("label", "") for d in prev.turn.get("pending") or []]
    round_label = str(labels[0]).split(": ")[0] if labels and labels[0] else f"step {step}"
    who = presenter.side_name(sc, msg.body.side)
    orders = msg.body.orders if isinstance(msg.body.orders, dict) else {}
    ingest = "ingest this email (pbem ingest GAME_DIR this.eml); 'pbem status GAME_DIR' then says what you owe next"
    if "report" in orders:
        after = game.listing.turns.get(step)
        outcome = None
        if after is not None:
            turn = loads_strict(read_regular(after, MAX_TURN_BYTES, what=after.name, follow_symlinks=False),
                                max_bytes=MAX_TURN_BYTES,
                                what=after.name)
            outcome = turn.get("outcome") if isinstance(turn, dict) else None
        lines = [f"{who} has adjudicated {round_label}. Each side's report is sealed to it alone: after "
                 "ingesting this email, 'pbem status GAME_DIR' shows yours (your units in words, the enemy "
                 "in sight, what they saw and did), and 'pbem render GAME_DIR' draws your map."]
        if isinstance(outcome, dict):
            lines.append(f"The game is over: {outcome.get('summary', 'see pbem status')}. {who} now publishes every "
                         "sealed order (pbem publish); with that publication 'pbem verify GAME_DIR' checks every "
                         "adjudication of the game.")
            return lines, ingest, "game over", round_label
        return lines, ingest, "report", round_label
    if orders.get("ack") == "commitments":
        return ([f"{who} acknowledges every side's commitment for {round_label}, the same set as yours, and "
                 "releases to Game Control the key of its sealed orders: Game Control reads no sheet before "
                 "every side has committed."], ingest, "acknowledgement", round_label)
    if orders.get("reveal") == "to-umpire":
        return ([f"{who} reveals the dice-chain value that keys this round's dice. Its orders stay sealed to "
                 "Game Control until the publication after the game."], ingest, "reveal", round_label)
    if msg.body.side == game.umpire:
        return ([f"{who} has signed its rulings for {round_label} (groupings, advantages), sealed: nobody else "
                 "can read them until the publication after the game, and they are fixed before any die is "
                 "known."], ingest, "rulings", round_label)
    return ([f"{who} has committed its orders for {round_label}: sealed, only Game Control can read them (once "
             "every side has committed), and they cannot be changed now."], ingest, "sealed orders", round_label)


def _address(game: Game, side: str) -> str | None:
    """A side's email address, when the genesis names one (``pbem new --email SIDE=ADDRESS``)."""
    entry = game.body.sides.get(side)
    return entry.email if entry is not None else None


def _own_message_id(raw: bytes, game: Game, step: int, tag: str) -> bytes:
    """``raw`` with a Message-ID of its own (``<pbem.GAME.NNNN.TAG@pbem.invalid>``): a mail that is
    not a step's move (an invitation, a join, the publication) must not take that step's id, which
    the invitations and joins of a game would all share -- and a mailbox (Gmail's, for one) keeps only
    the first of several mails with one Message-ID, so the others never arrive (RFC 5322 3.6.4: the
    id names one message)."""
    import email
    import email.policy

    from pbem.mail.draft import message_id

    msg = email.message_from_bytes(raw, policy=email.policy.SMTP)
    del msg["Message-ID"]
    msg["Message-ID"] = message_id(game.id, step).replace("@", f".{tag}@")
    data: bytes = msg.as_bytes(policy=email.policy.SMTP)
    return data


def invitation_email(game: Game, side: str, *, template_dir: Path | None = None) -> bytes:
    """The email that invites ``side`` to a game: the genesis and the scenario attached, every
    player's key fingerprint in the text (to compare by phone), and how to accept."""
    from pbem.mail.draft import draft_email

    sc = game.scenario
    presenter = game.ruleset.presenter()
    side_name = presenter.side_name
    hosts = [s for s in game.sides if s != side and game.commitment(s) is not None]
    sender = hosts[0] if hosts else next(s for s in game.sides if s != side)
    lines = [presenter.about(sc)]
    if game.body.options:  # the choices made at pbem new, signed in the genesis
        chosen = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                           for k, v in sorted(game.body.options.items()))
        lines.append(f"Options chosen for this game (pbem new --option): {chosen}")
    for s, entry in sorted(game.body.sides.items()):
        lines.append(f"{side_name(sc, s)} ({s}) plays with key {entry.fingerprint}")
    attachments = [
        (names.GENESIS, game.genesis.raw, "application/json"),
        (names.SCENARIO, game.scenario_file_for(side), "application/json"),
    ]
    return _own_message_id(draft_email(
        game_id=game.id, scenario=sc, side_name=partial(presenter.side_name, sc),
        step=0, sender_side=sender, recipient_side=side,
        narrative=lines,
        intro=(f"{side_name(sc, sender)} invites you to play {side_name(sc, side)} in {presenter.title(sc)} "
               f"(game {game.id}). Check that the key fingerprints below are the ones you expect."),
        next_action=("save this email and run 'pbem join GAME_DIR --key YOUR_KEY --invitation "
                     "this.eml', then send the email it writes to "
                     + ("every other side (each needs every join before the game starts)"
                        if len(game.sides) > 2 else "the player who invited you")),
        howto=("To accept, save this email and run 'pbem join GAME_DIR --key YOUR_KEY --invitation "
               "this-email.eml' (or, with your mailbox set up, 'pbem join GAME_DIR --key YOUR_KEY --fetch'); "
               "it prints every key the game binds before it signs."),
        attachments=attachments, template_dir=template_dir,
        sender_address=_address(game, sender), recipient_address=_address(game, side),
        subject=f"[pbem] {sc.id} {game.id[:8]}: invitation to play {side_name(sc, side)}",
    ), game, 0, f"invite-{side}")


def publication_email(game: Game, raw: bytes, *, template_dir: Path | None = None) -> bytes:
    """The umpire's email to every side after a game with hidden information: the publication
    (every sealed order and ruling, and a secret set-up's whole scenario) attached, and how to check
    every adjudication with it [P10]."""
    from pbem.mail.draft import draft_email

    sc = game.scenario
    presenter = game.ruleset.presenter()
    umpire = str(game.umpire)
    others = [s for s in game.sides if s != umpire]
    lines = [f"The game is over. {presenter.side_name(sc, umpire)} publishes every sealed order sheet and "
             "ruling of the game" + (", and the whole scenario with its set-up" if game.body.scenario.copies
                                      else "") + ", signed.",
             "With it your pbem opens every commitment, recomputes every state, roll and report from the "
             "start, and names the first that differs from what you were told."]
    step = max(game.moves) if game.moves else 0
    return _own_message_id(draft_email(
        game_id=game.id, scenario=sc, side_name=partial(presenter.side_name, sc),
        step=step, sender_side=umpire,
        recipient_side="ALL", recipient_name="every side", narrative=lines,
        next_action=("ingest this email (pbem ingest GAME_DIR this.eml), then run pbem verify GAME_DIR: "
                     "it checks every adjudication of the game"),
        attachments=[(names.PUBLICATION, raw, "application/json")], template_dir=template_dir,
        sender_address=_address(game, umpire),
        recipient_address=", ".join(a for s in others if (a := _address(game, s))) or None,
        subject=f"[pbem] {sc.id} {game.id[:8]}: the publication (every order, checkable)",
    ), game, step, "publication")


def write_publication_mail(game: Game, raw: bytes) -> list[Path]:
    """``mail-publication.eml`` (after ``pbem publish``), when the system drafts emails."""
    if not game.ruleset.presenter().writes_mail:
        return []
    return write_mail(game, game.dir / names.PUBLICATION_MAIL, publication_email(game, raw))


def reminder_email(game: Game, sender: str, recipient: str, clock_text: str, waiting: str, step: int, *,
                   template_dir: Path | None = None) -> bytes:
    """A polite reminder that ``recipient`` owes a message (``pbem remind``); its own Message-ID,
    threaded under the step's mail."""
    from pbem.mail.draft import draft_email

    sc = game.scenario
    presenter = game.ruleset.presenter()
    raw = draft_email(
        game_id=game.id, scenario=sc, side_name=partial(presenter.side_name, sc),
        step=step, sender_side=sender, recipient_side=recipient,
        narrative=[f"The game waits for {waiting}.", f"Clock: {clock_text}.",
                   "pbem only shows the clock the players agreed; it never decides a game on time."],
        intro=(f"A friendly reminder from {presenter.side_name(sc, sender)} in {presenter.title(sc)} "
               f"(game {game.id[:8]})."),
        next_action="when you have sent your move, ignore this reminder",
        attachments=[], template_dir=template_dir,
        sender_address=_address(game, sender), recipient_address=_address(game, recipient),
        subject=f"[pbem] {sc.id} {game.id[:8]}: reminder -- {presenter.side_name(sc, recipient)} to move",
    )
    return _own_message_id(raw, game, step, f"remind-{recipient}")


def receipt_email(game: Game, sender: str, recipient: str, name: str, raw: bytes, turn: Any, *,
                  template_dir: Path | None = None) -> bytes:
    """The email carrying a receipt (quick results): the receipt, and the turn it resolves for the
    recipient's pbem to compare byte for byte [P6]; what happened in words."""
    from pbem.mail.draft import draft_email

    sc = game.scenario
    presenter = game.ruleset.presenter()
    attachments = [(name, raw, "application/json")]
    narrative: list[str] = []
    if turn is not None:
        attachments.append((turn.name, turn.turn_bytes, "application/json"))
        narrative = list(presenter.narrate(sc, turn.turn["events"], turn.turn["rolls"],
                                           state=turn.turn["state"] if turn.state is None else turn.state))
    step = int(name[8:12])
    out = draft_email(
        game_id=game.id, scenario=sc, side_name=partial(presenter.side_name, sc),
        step=step, sender_side=sender, recipient_side=recipient,
        narrative=narrative,
        intro=(f"{presenter.side_name(sc, sender)} received your move {step} and sends the reveal that "
               "keys its dice at once (a receipt: no decision in it), so you see what happened now."),
        next_action="ingest this email (pbem ingest GAME_DIR this.eml); the next move follows",
        attachments=attachments, template_dir=template_dir,
        sender_address=_address(game, sender), recipient_address=_address(game, recipient),
        subject=f"[pbem] {sc.id} {game.id[:8]}: results of your move {step}",
    )
    return _own_message_id(out, game, step, "receipt")


def takeback_email(game: Game, name: str, raw: bytes, lines: list[str], *,
                   template_dir: Path | None = None) -> bytes:
    """The email carrying a take-back request (``takeback-NNNN-SIDE-R.json``) or the opponent's
    consent (``consent-...``), ready to send like a receipt: the file attached, what it undoes in
    words (``lines``), and what the reader runs [27]."""
    from pbem.engine.takeback import opponent
    from pbem.mail.draft import draft_email

    sc = game.scenario
    presenter = game.ruleset.presenter()
    m = names.TAKEBACK_RE.fullmatch(name) or names.CONSENT_RE.fullmatch(name)
    assert m is not None, name
    step, sender, number = int(m.group(1)), m.group(2), int(m.group(3))
    recipient = opponent(game, sender) or sender
    asking = name.startswith("takeback-")
    if asking:
        intro = (f"{presenter.side_name(sc, sender)} asks to take back its move {step} (a slip): nothing "
                 "changes unless you agree.")
        next_action = ("ingest this email (pbem ingest GAME_DIR this.eml) to see exactly what it undoes; to "
                       "agree, pbem takeback consent GAME_DIR this.eml --key YOUR_KEY")
        subject = f"[pbem] {sc.id} {game.id[:8]}: take back move {step}?"
    else:
        intro = f"{presenter.side_name(sc, sender)} agrees to take back your move {step}."
        next_action = (f"ingest this email (pbem ingest GAME_DIR this.eml): both games go back to the turn "
                       f"before move {step}, and you make it again")
        subject = f"[pbem] {sc.id} {game.id[:8]}: move {step} taken back"
    out = draft_email(
        game_id=game.id, scenario=sc, side_name=partial(presenter.side_name, sc),
        step=step, sender_side=sender, recipient_side=recipient,
        narrative=lines, intro=intro, next_action=next_action,
        attachments=[(name, raw, "application/json")], template_dir=template_dir,
        sender_address=_address(game, sender), recipient_address=_address(game, recipient),
        subject=subject,
    )
    return _own_message_id(out, game, step, f"{'takeback' if asking else 'consent'}-{number}")


def write_takeback_mail(game: Game, path: Path, lines: list[str]) -> list[Path]:
    """``mail-takeback-NNNN-SIDE-R.eml`` (or ``mail-consent-...``) beside the file signed here, when
    the game has mail [27]."""
    from pbem.protocol.archive import read_archived
    from pbem.protocol.canonical import MAX_MOVE_BYTES

    if not game.ruleset.presenter().writes_mail:
        return []
    raw = read_archived(path, MAX_MOVE_BYTES)
    return write_mail(game, game.path(names.takeback_mail_name(path.name)), takeback_email(game, path.name, raw, lines))


def join_email(game: Game, side: str, *, template_dir: Path | None = None) -> bytes:
    """The email that accepts an invitation: the join file attached."""
    from pbem.mail.draft import draft_email

    sc = game.scenario
    presenter = game.ruleset.presenter()
    side_name = presenter.side_name
    msg = game.joins[side]
    others = [s for s in game.sides if s != side]
    attachments = [(msg.name, msg.raw, "application/json")]
    everyone = len(others) > 1  # every other side needs the join (Game Control and the teams)
    return _own_message_id(draft_email(
        game_id=game.id, scenario=sc, side_name=partial(presenter.side_name, sc),
        step=0, sender_side=side, recipient_side="ALL" if everyone else others[0],
        recipient_name="every other side" if everyone else None,
        narrative=[f"{side_name(sc, side)} ({side}) accepts with key "
                   f"{game.body.sides[side].fingerprint} and commits to its dice chain."],
        intro=f"{side_name(sc, side)} accepts your invitation to {presenter.title(sc)} (game {game.id}).",
        next_action=("ingest this email (pbem ingest GAME_DIR this.eml): the game starts once every side has "
                     "joined" if everyone else "ingest this email (pbem ingest GAME_DIR this.eml): the game starts"),
        howto="To take this join in, save this email and run 'pbem ingest GAME_DIR this-email.eml'.",
        attachments=attachments, template_dir=template_dir,
        sender_address=_address(game, side),
        recipient_address=(", ".join(a for o in others if (a := _address(game, o))) or None) if everyone
        else _address(game, others[0]),
        subject=f"[pbem] {sc.id} {game.id[:8]}: {side_name(sc, side)} joins",
    ), game, 0, f"join-{side}")


def write_invitation_mails(game: Game) -> list[Path]:
    """``mail-invite-SIDE.eml`` for every side still to join (after ``pbem new``)."""
    if not game.ruleset.presenter().writes_mail:
        return []
    out = []
    for side in game.missing_joins():
        out += write_mail(game, game.dir / names.invite_mail_name(side), invitation_email(game, side))
    return out


def write_join_mail(game: Game, side: str) -> list[Path]:
    """``mail-join-SIDE.eml`` (after ``pbem join``)."""
    if not game.ruleset.presenter().writes_mail:
        return []
    return write_mail(game, game.dir / names.join_mail_name(side), join_email(game, side))


def delivered(game: Game, step: int) -> bool:
    """Whether every side but the author of move ``step`` has a move of a later step in this
    directory: each has answered it, so its email has no one left to reach (read from the file
    names only). In turn-based play a later move answers a turn that holds this one. In a sealed
    round a later commitment does not prove that its author read this one, but the round's
    acknowledgement or ruling, which every side of a game with an umpire signs before its next
    round, does; in a sealed game without an umpire and with emails (none is bundled) this may
    call an email delivered a little early: ``pbem mail draft --step N`` writes it again."""
    moves = game.listing.moves
    if step not in moves:
        return False
    author = move_side(moves.name(step))
    later = {move_side(moves.name(s)) for s in moves if s > step}
    return all(side in later for side in game.sides if side != author)


def move_side(move_name: str) -> str:
    """The side in a move file's name (``move-NNNN-SIDE.json``, or a take-back's redo)."""
    return move_name[10:].split(".")[0].split("-")[0]


def write_move_outputs(game: Game, msg: Any) -> list[Path]:
    """Write ``mail-NNNN.eml`` for a move signed here (see the module docstring), and remove the
    emails of earlier moves every other side has answered (:func:`delivered`)."""
    from pbem.engine import derived

    step = msg.body.step
    game.moves.setdefault(step, msg)
    path = game.dir / names.mail_name(step)
    out = write_mail(game, path, move_email(game, step), derived=True)
    if path.name not in game.listing.other:
        game.listing.other.append(path.name)
    answered = [n for n in game.listing.other  # fullmatch: not a name ending in a newline
                if (m := names.MOVE_MAIL_RE.fullmatch(n)) and int(m.group(1)) < step and delivered(game, int(m.group(1)))]
    recorded = derived.newest(game.dir, answered)
    for name in answered:
        derived.remove(game.dir, name, game.listing.other, recorded)
    return out


def move_output_hook(game: Game, replay: Any, msg: Any) -> list[Path]:
    """Engine move output hook: the email of each move signed here (systems whose presenter
    drafts emails) that is not written yet and still has someone to reach; once every other side
    has answered the move, its email is removed (after an ingest, say)."""
    from pbem.engine import derived

    step = msg.body.step
    name = names.mail_name(step)
    if not game.ruleset.presenter().writes_mail:
        return []
    if delivered(game, step):  # answered by every other side (e.g. by the move just ingested)
        if name in game.listing.other:
            derived.remove(game.dir, name, game.listing.other)
        return []
    if plain_file(game.dir / name):  # a link standing there is no email: write_new refuses it
        return []  # written already (by this or an earlier command)
    return write_move_outputs(game, msg)


def receipt_output_hook(game: Game, replay: Any, name: str, raw: bytes) -> list[Path]:
    """The email of a receipt signed here (``mail-receipt-NNNN-SIDE.eml``), where the game has mail."""
    if not game.ruleset.presenter().writes_mail:
        return []
    m = names.RECEIPT_RE.fullmatch(name)
    assert m is not None, name
    step, side = int(m.group(1)), m.group(2)
    return write_mail(game, game.path(names.receipt_mail_name(step, side)),
                      receipt_email(game, side, replay.placed[-1].body.side, name, raw, replay.record(step)))
