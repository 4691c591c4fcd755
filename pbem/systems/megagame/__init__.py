"""J. Wallman's Operation Market Garden megagame (seed 004): umpired play from written orders.

Built so far: the combat arithmetic (:mod:`pbem.systems.megagame.combat`). The ruleset (sides and
teams, order sheets, the umpire's adjudication, ELETIS reports) is not built yet.
"""
