"""The packaged templates compiled by Jinja2 (written by ``python -m pbem.templates.precompile``:
do not edit). Each is used only where its source checksum and the Jinja2 version match."""

JINJA2 = "3.1.6"
"""The Jinja2 that compiled them."""

CHECKSUMS: dict[str, str] = {
    "mail.txt.j2": "67afc6a3971f06d730cf4054e73a3dd8cdc2311c",
    "mail.html.j2": "bf86ebd7aa787c9120ab657465df59ff2d645bbb",
    "site.html.j2": "b443a40356f37406488b0737662ee40553539781",
}
"""Packaged template name -> the SHA-1 of its source (the checksum Jinja2 computes)."""
