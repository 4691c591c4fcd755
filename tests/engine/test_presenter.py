"""A system's presenter is all the commands need: the toy game gets ``pbem bot``, text orders and
``pbem log`` in words from its :class:`~pbem.systems.toy.ToyPresenter`, with nothing in the engine
or the CLI that knows the toy."""

from __future__ import annotations

from pathlib import Path

from helpers.protocol import GAME_ID, TOY, ok, pbem
from helpers.svgmap import drawn_hexes, unit_data

from pbem.engine.presenter import Presenter
from pbem.engine.ruleset import get_ruleset


def hot_seat(tmp_path: Path) -> tuple[Path, Path]:
    home, g = tmp_path / "home", tmp_path / "g"
    for name in ("alice", "bob"):
        ok(pbem("key", "new", name, home=home))
    ok(pbem("new", TOY, g, "--player", "A=alice", "--player", "B=bob", "--game-id", GAME_ID, home=home))
    return home, g


def test_every_system_has_a_presenter() -> None:
    for system in ("westwall", "toy"):
        assert isinstance(get_ruleset(system).presenter(), Presenter)


def test_the_toy_is_played_to_the_end_by_pbem_bot(tmp_path: Path) -> None:
    home, g = hot_seat(tmp_path)
    keys = {"A": "alice", "B": "bob"}
    for _ in range(20):
        status = ok(pbem("status", g, home=home)).out
        pending = [line for line in status.splitlines() if line.startswith("pending")]
        if not pending:
            break
        side = pending[0].split()[1].rstrip(":")
        ok(pbem("bot", g, "--side", side, "--key", keys[side], home=home))
    assert "outcome" in ok(pbem("status", g, home=home)).out
    assert ok(pbem("verify", g, home=tmp_path / "stranger")).out.rstrip().endswith("OK")
    log = ok(pbem("log", g, home=home)).out
    assert "A takes a handicap of 1 [T2]" in log  # orders in words, from the presenter
    assert "rolls 2 dice in round 1 [T3]" in log or "rolls 3 dice in round 1 [T3]" in log


def test_the_toy_takes_text_orders(tmp_path: Path) -> None:
    home, g = hot_seat(tmp_path)
    (tmp_path / "a.txt").write_text("handicap 2\n")
    ok(pbem("submit", "--yes", g, tmp_path / "a.txt", "--key", "alice", home=home))
    (tmp_path / "b.txt").write_text("handicap 0  # no head start\n")
    ok(pbem("submit", "--yes", g, tmp_path / "b.txt", "--key", "bob", home=home))
    (tmp_path / "roll.txt").write_text("roll 3\ncheer onward\n")
    ok(pbem("submit", "--yes", g, tmp_path / "roll.txt", "--key", "alice", home=home))
    assert "rolls 3 dice in round 1, cheering 'onward' [T3]" in ok(pbem("log", g, home=home)).out
    (tmp_path / "bad.txt").write_text("move 1/501 to 1418\n")
    res = pbem("submit", "--yes", g, tmp_path / "bad.txt", "--key", "bob", home=home)
    assert res.code == 2 and "is not an order for this decision" in res.err


def test_a_system_without_a_bot_or_text_orders_says_so() -> None:
    plain = Presenter(get_ruleset("toy"))
    import pytest

    from pbem.errors import InputError

    with pytest.raises(InputError, match="no sparring bot for the toy system"):
        plain.bot_orders(None, None, "A")
    with pytest.raises(InputError, match="has no text orders"):
        plain.parse_text_orders(None, {}, "A", "roll 2")


def test_the_renderer_draws_a_map_view_that_no_system_made() -> None:
    """pbem.render.svg knows no rules system: a view built by hand (two counters, a move, a combat)
    is drawn like any other."""
    import xml.etree.ElementTree as ET

    import pbem.render.svg as svg
    from pbem.maps.hexmap import Hex
    from pbem.maps.view import CombatMark, CounterView, MapView, MoveMark, SideView

    sources = [p.read_text() for p in Path(svg.__file__).parent.glob("*.py")]  # the package
    imports = [line for source in sources for line in source.splitlines()
               if line.lstrip().startswith(("import ", "from "))]
    assert not [line for line in imports if "systems" in line]  # imports nothing of any system
    h = Hex.parse
    view = MapView(
        scenario_id="hand-made", title="A hand-made view", subtitle="step 1",
        cols=(1, 3), rows=(1, 3), terrain={x: "clear" for x in MapView(
            "x", "", "", (1, 3), (1, 3), {}, {}, ()).all_hexes()},
        hexsides={(h("0101"), h("0102")): frozenset({"river"})},
        sides=(SideView("R", "Red", "#cc3333"), SideView("B", "Blue", "#3355cc")),
        terrain_kinds=frozenset({"clear"}),
        counters=(CounterView("r1", h("0202"), "R", "infantry", "II", "1st", "4-4-6", ("4-4-6",)),
                  CounterView("b1", h("0302"), "B", "armor", "III", "2nd", "6-3-8", ("6-3-8",))),
        marks=(MoveMark(1, "r1", (h("0201"), h("0202"))),
               CombatMark(2, 1, (h("0302"),), (h("0202"),), (), (), "#1  +1 · 4 · DR")),
    )
    root = ET.fromstring(svg.draw(view))
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    assert ids["unit-r1"].get("data-hex") == "0202" and unit_data(root, ids["unit-b1"], "data-type") == "armor"
    assert ids["event-1"].get("data-type") == "moved" and ids["event-2"].get("data-hex") == "0302"
    assert "hs-river" in ids and "0303" in drawn_hexes(root)
    assert svg.draw(view) == svg.draw(view)  # a pure function


def test_no_system_imports_the_renderer() -> None:
    """Systems hand the renderer a map view and nothing else: no module under pbem/systems/
    imports pbem.render (the layers import downward only)."""
    import pbem.systems

    root = Path(pbem.systems.__file__).parent
    offenders = [f"{p.relative_to(root)}: {line.strip()}" for p in sorted(root.rglob("*.py"))
                 for line in p.read_text().splitlines()
                 if line.lstrip().startswith(("import ", "from ")) and "pbem.render" in line]
    assert offenders == []


def test_the_renderer_names_no_terrain_kind() -> None:
    """Terrain colours and patterns are the systems' data (their map views carry the looks of
    terrain-look.json): no module of pbem.render names a terrain kind, and a view built without
    looks draws every kind in the one grey of an unknown kind."""
    import json
    import xml.etree.ElementTree as ET

    import pytest

    import pbem.render
    import pbem.render.svg as svg
    from pbem.engine.scenarios import bundled_text
    from pbem.maps.view import MapView, terrain_looks
    from pbem.render.svg.palette import DEFAULT_COLORS

    kinds = [k["kind"] for k in json.loads(bundled_text("terrain-look.json"))["kinds"]]
    assert {"clear", "woods", "polder"} <= set(kinds)
    for path in sorted(Path(pbem.render.__file__).parent.rglob("*.py")):
        text = path.read_text()
        assert not [k for k in kinds if f'"{k}"' in text or f"'{k}'" in text], path
    base = MapView("x", "", "", (1, 2), (1, 2), {}, {}, ())
    view = MapView("bare", "", "", (1, 2), (1, 2), dict(zip(base.all_hexes(), kinds, strict=False)),
                   {}, (), terrain_kinds=frozenset(kinds[:4]))
    fills = {el.get("data-terrain"): el.get("fill") for el in ET.fromstring(svg.draw(view)).iter()
             if el.get("data-terrain")}
    assert fills == dict.fromkeys(kinds[:4], DEFAULT_COLORS["terrain-unknown"])
    for bad in ('{"kinds": [{"kind": "x"}]}', '{"kinds": [{"kind": "x", "fill": "#fff", "marks": '
                '[{"circle": [1, 2]}]}]}', '{"kinds": [{"kind": "x", "fill": "#fff", "hue": 1}]}', "[]"):
        with pytest.raises(ValueError):
            terrain_looks(bad)


def test_a_big_stack_stays_in_its_hex_and_says_how_many() -> None:
    """Seven counters on one hex: the top four fan out as a stack of four would, the three below
    lie under the lowest of them, and the top counter carries the count; a stack of four is drawn
    as before, with no count."""
    import re
    import xml.etree.ElementTree as ET

    import pbem.render.svg as svg
    from pbem.maps.hexmap import Hex
    from pbem.maps.view import CounterView, MapView, SideView

    def drawn(n: int, drawing: int = 1) -> dict[str, ET.Element]:
        h = Hex.parse("0202")
        view = MapView(
            scenario_id="hand-made", title="stacks", subtitle="", cols=(1, 3), rows=(1, 3),
            terrain={x: "clear" for x in MapView("x", "", "", (1, 3), (1, 3), {}, {}, ()).all_hexes()},
            hexsides={}, sides=(SideView("R", "Red", "#cc3333"),), terrain_kinds=frozenset({"clear"}),
            counters=tuple(CounterView(f"u{k}", h, "R", "infantry", "II", f"{k}th", "4-4-6", ("4-4-6",))
                           for k in range(n)))
        root = ET.fromstring(svg.draw(view, drawing=drawing))
        return {el.get("id", ""): el for el in root.iter() if (el.get("id") or "").startswith("unit-")}

    def shift(el: ET.Element) -> float:
        m = re.match(r"translate\(([-\d.]+),", el.get("transform", ""))
        assert m is not None
        return float(m.group(1))

    seven, four = drawn(7), drawn(4)
    base = shift(four["unit-u0"])
    assert [shift(seven[f"unit-u{k}"]) for k in range(3)] == [base] * 3  # under the lowest shown
    assert [shift(seven[f"unit-u{k}"]) for k in range(3, 7)] == [shift(four[f"unit-u{k}"]) for k in range(4)]
    texts = lambda el: [t.text for t in el.iter() if t.tag.endswith("text")]  # noqa: E731
    assert "7" in texts(seven["unit-u6"]) and "4" not in texts(four["unit-u3"])
    # drawing 2 (issue 27): every stack says how many units it holds, and only its top is legible
    four = drawn(4, drawing=2)
    assert "4" in texts(four["unit-u3"]) and "4th" not in texts(four["unit-u3"])
    assert all(texts(four[f"unit-u{k}"]) == [] for k in range(3))  # their edges only
    assert [[t.text for t in four[f"unit-u{k}"].iter() if t.tag.endswith("title")] for k in range(3)] == \
        [["0th"], ["1th"], ["2th"]]  # named on hover


class MailingToyPresenter(__import__("pbem.systems.toy", fromlist=["ToyPresenter"]).ToyPresenter):
    writes_mail = True


class MailingToyRules(__import__("pbem.systems.toy", fromlist=["ToyRules"]).ToyRules):
    system = "toy-mail"

    def load_scenario(self, data):  # type: ignore[no-untyped-def]
        return super().load_scenario(dict(data, system="toy"))

    def presenter(self) -> Presenter:
        return MailingToyPresenter(self)


def test_a_system_gets_emails_by_saying_so_in_its_presenter(tmp_path: Path) -> None:
    """Nothing in render/, mail/ or the CLI knows the toy: its presenter says it writes mail, and
    the invitation, the join and every move get their emails (no map: the toy has none)."""
    import email
    import email.policy
    import json
    import shutil
    scenario = tmp_path / "toy-mail.json"
    scenario.write_text(json.dumps(dict(json.loads(TOY.read_text()), system="toy-mail", id="toy-mail")))
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    ok(pbem("key", "new", "alice", home=alice))
    ok(pbem("key", "new", "bob", home=bob))
    a, b = tmp_path / "a", tmp_path / "b"
    ok(pbem("new", scenario, a, "--player", "A=alice", "--player", f"B={bob / 'keys' / 'bob.pub'}", home=alice))
    assert (a / "mail-invite-B.eml").exists()
    ok(pbem("join", b, "--key", "bob", "--invitation", a / "mail-invite-B.eml", home=bob))
    ok(pbem("ingest", a, b / "mail-join-B.eml", home=alice))
    (tmp_path / "a1.txt").write_text("handicap 1\n")
    ok(pbem("submit", "--yes", a, tmp_path / "a1.txt", "--key", "alice", home=alice))
    mail = email.message_from_bytes((a / "mail-0001.eml").read_bytes(), policy=email.policy.default)
    names = {p.get_filename() for p in mail.iter_attachments()}
    assert names == {"move-0001-A.json", "turn-0000.json"}
    text = mail.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "A takes a handicap of 1 [T2]" in text
    shutil.copyfile(a / "mail-0001.eml", tmp_path / "from-alice.eml")
    res = ok(pbem("ingest", b, tmp_path / "from-alice.eml", home=bob))
    assert "step 1: A's move" in res.err
