"""The packaged templates compiled by Jinja2 (written by ``python -m pbem.templates.precompile``:
do not edit). Each is used only where its source checksum and the Jinja2 version match."""

JINJA2 = "3.1.6"
"""The Jinja2 that compiled them."""

CHECKSUMS: dict[str, str] = {
    "mail.txt.j2": "3360bbef4b0349d12ae4a89415e79fedbce3a7ab",
    "mail.html.j2": "3309208fd14bdd57aa82bce72065c87da5fa7f99",
    "site.html.j2": "b443a40356f37406488b0737662ee40553539781",
}
"""Packaged template name -> the SHA-1 of its source (the checksum Jinja2 computes)."""
