"""The rules systems, one package (or module) each: ``westwall`` (SPI WestWall with the Bastogne
exclusive rules) and ``toy`` (a two-round dice duel that proves the engine in tests)."""
