"""The packaged templates as Jinja2 compiled them, for :func:`pbem.templates.template_env` (see
:mod:`pbem.templates.precompile`, which writes them): a bytecode cache that stores nothing and
hands Jinja2 the code of a packaged template's compiled module when that module was compiled from
the very source being loaded (Jinja2's own checksum of it) by this Jinja2; anything else -- a user's
template, a changed or newer one -- Jinja2 compiles as always."""

from __future__ import annotations

import importlib.util
from types import CodeType

import jinja2
from jinja2.bccache import Bucket

PACKAGE = "pbem.templates.precompiled"


def module_name(name: str) -> str:
    """The module holding the packaged template ``name`` compiled (``mail.txt.j2``: ``mail_txt_j2``)."""
    return name.replace(".", "_")


class Precompiled(jinja2.BytecodeCache):
    """Jinja2's bytecode cache over the packaged templates' compiled modules (read only)."""

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        # the packaged templates have no file name (a FunctionLoader's); a file's template never
        # matches one of them
        return name if filename is None else super().get_cache_key(name, filename)

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            from pbem.templates.precompiled import CHECKSUMS, JINJA2
        except ImportError:  # not shipped (a partial copy of pbem): compiled from the source
            return
        if CHECKSUMS.get(bucket.key) != bucket.checksum or jinja2.__version__ != JINJA2:
            return
        code = compiled_code(bucket.key)
        if code is not None:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        return  # nothing is stored: Jinja2 compiles what is not shipped compiled


def compiled_code(name: str) -> CodeType | None:
    """The code object of the packaged template ``name``'s compiled module, read through the import
    system (its cached bytecode) without importing (running) the module; None where the module or a
    loader that reads code is missing."""
    spec = importlib.util.find_spec(f"{PACKAGE}.{module_name(name)}")
    get_code = getattr(spec.loader, "get_code", None) if spec is not None else None
    if spec is None or get_code is None:
        return None
    code = get_code(spec.name)
    return code if isinstance(code, CodeType) else None
