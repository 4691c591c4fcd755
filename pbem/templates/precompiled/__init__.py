"""The packaged templates compiled by Jinja2 (written by ``python -m pbem.templates.precompile``:
do not edit). Each is used only where its source checksum and the Jinja2 version match."""

JINJA2 = "3.1.6"
"""The Jinja2 that compiled them."""

CHECKSUMS: dict[str, str] = {
    "mail.txt.j2": "7b654c1af086b0f7f48a1406c635923b6806b3e1",
    "mail.html.j2": "9d8331c2ffc3e2fa54bd442a4199074d0ffa243a",
    "site.html.j2": "b443a40356f37406488b0737662ee40553539781",
}
"""Packaged template name -> the SHA-1 of its source (the checksum Jinja2 computes)."""
