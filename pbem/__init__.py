"""pbem: a play-by-email turn adjudicator for hex-and-counter wargames.

The package is layered so that the rules never depend on presentation:

* :mod:`pbem.hexmap` -- SPI ``XXYY`` hex geometry (pure values).
* :mod:`pbem.ruleset` -- the one interface every rules system implements.
* :mod:`pbem.westwall` -- the SPI WestWall rules system.
* :mod:`pbem.canonical`, :mod:`pbem.keys`, :mod:`pbem.dsse`, :mod:`pbem.dice` -- protocol primitives.
* :mod:`pbem.archive`, :mod:`pbem.engine` -- the campaign archive and its replay.
* :mod:`pbem.render`, :mod:`pbem.mail` -- map snapshots and email drafts (imported lazily).
* :mod:`pbem.cli` -- the ``pbem`` command.
"""

__version__ = "0.1.0"
