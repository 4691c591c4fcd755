"""pbem: a play-by-email turn adjudicator for hex-and-counter wargames.

The package is layered so that the rules never depend on presentation:

* :mod:`pbem.maps.hexmap` -- SPI ``XXYY`` hex geometry (pure values).
* :mod:`pbem.engine.ruleset` -- the one interface every rules system implements.
* :mod:`pbem.systems.westwall` -- the SPI WestWall rules system.
* :mod:`pbem.protocol.canonical`, :mod:`pbem.protocol.keys`, :mod:`pbem.protocol.dsse`, :mod:`pbem.protocol.dice` -- protocol primitives.
* :mod:`pbem.protocol.archive`, :mod:`pbem.engine.replay` -- the campaign archive and its replay.
* :mod:`pbem.render`, :mod:`pbem.mail.draft` -- map snapshots and email drafts (imported lazily).
* :mod:`pbem.cli` -- the ``pbem`` command.
"""

__version__ = "0.2.0"
