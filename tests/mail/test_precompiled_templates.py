"""The packaged templates ship compiled (issue 28, :mod:`pbem.templates.precompile`): the compiled
modules are what this Jinja2 makes of these templates, a template loads from its module only while
its source and the Jinja2 version are those it was compiled from, and what it writes is byte for
byte what the template compiled from its source writes (emails of the example game, the viewer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.paths import ROOT

import pbem.templates.precompiled as precompiled
from pbem.engine.gamedir import open_checked
from pbem.mail.compose import move_email
from pbem.render.site import write_site
from pbem.templates import PACKAGED, template_env
from pbem.templates.precompile import HERE, generated

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


@pytest.fixture(autouse=True)
def _no_user_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))


def test_the_compiled_modules_are_fresh() -> None:
    """Run ``python -m pbem.templates.precompile`` when this fails (a template or the environment's
    settings changed, or Jinja2 did)."""
    files = generated()
    assert sorted(files) == sorted(p.name for p in HERE.glob("*.py"))
    for name, text in files.items():
        assert (HERE / name).read_text(encoding="utf-8") == text, f"{name} is stale"
    assert set(precompiled.CHECKSUMS) == set(PACKAGED)


def test_a_packaged_template_loads_from_its_module_only_while_it_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PACKAGED:
        t = template_env().get_template(name)
        assert t.filename is not None and t.filename.endswith(f"{name.replace('.', '_')}.py"), t.filename
    # another source (a changed template) or another Jinja2: compiled from the source, as always
    monkeypatch.setitem(precompiled.CHECKSUMS, "mail.txt.j2", "0" * 40)
    monkeypatch.setattr(precompiled, "JINJA2", "0.0")
    for name in PACKAGED:
        assert template_env().get_template(name).filename == "<template>"


def _outputs(tmp: Path) -> dict[str, bytes]:
    game = open_checked(EXAMPLE)
    out = {f"mail-{step}": move_email(game, step) for step in sorted(game.moves)[::4]}
    site = tmp / "site"
    write_site(game, site)
    out |= {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*.html"))}
    return out


def test_compiled_and_source_templates_write_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = _outputs(tmp_path / "a")
    monkeypatch.setattr(precompiled, "CHECKSUMS", {})  # every template compiled from its source
    from_source = _outputs(tmp_path / "b")
    assert len(compiled) >= 4 and any(k.endswith(".html") for k in compiled)
    assert compiled == from_source
