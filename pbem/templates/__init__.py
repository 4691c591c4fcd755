"""The Jinja2 templates pbem ships (the emails, the game viewer) and their loader.

Templates are looked up in the user's own directory first (``template_dir``, else
``$PBEM_HOME/templates``, else ``~/.pbem/templates``), then in the packaged defaults (this
package). A user template may extend a default one with ``{% extends "default:mail.html.j2" %}``,
as in datasette.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pbem.errors import InputError

PACKAGED = ("mail.txt.j2", "mail.html.j2", "site.html.j2")
"""The templates this package ships, each also shipped compiled (:mod:`pbem.templates.precompile`)."""
_PACKAGED = Path(__file__).resolve().parent


def user_template_dir() -> Path:
    """``$PBEM_HOME/templates`` (default ``~/.pbem/templates``)."""
    home = os.environ.get("PBEM_HOME")
    base = Path(home) if home else Path.home() / ".pbem"
    return base / "templates"


def _packaged_template(name: str) -> str | None:
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    res = _PACKAGED / name  # installed beside this module as plain files (no importlib.resources)
    try:
        return res.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def template_env(template_dir: Path | str | None = None) -> Any:
    """The Jinja2 environment: the user's templates first, then the packaged ones, which are also
    reachable as ``default:NAME`` so a user template can extend them."""
    import jinja2

    from pbem.templates.cache import Precompiled

    packaged = jinja2.FunctionLoader(_packaged_template)
    loaders: list[jinja2.BaseLoader] = []
    user_dir = Path(template_dir) if template_dir is not None else user_template_dir()
    if template_dir is not None and not user_dir.is_dir():
        raise InputError(f"template directory {user_dir} does not exist")
    if user_dir.is_dir():
        loaders.append(jinja2.FileSystemLoader(str(user_dir)))
    loaders.append(jinja2.PrefixLoader({"default": packaged}, delimiter=":"))
    loaders.append(packaged)
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"),
                                            default_for_string=False, default=False),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=Precompiled(),  # the packaged templates as compiled beforehand [28]
    )
