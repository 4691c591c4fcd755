"""J. Wallman's Operation Market Garden megagame (seed 004): umpired play from written orders.

The modules, each importing only those listed before it:

* the pure rules, no game state: :mod:`~pbem.systems.megagame.combat` (the combat arithmetic),
  :mod:`~pbem.systems.megagame.tables` (interdiction and counter-battery, air resupply, drops,
  movement after landing, recce, flak, fighters, ELETIS effectiveness words),
  :mod:`~pbem.systems.megagame.movement` (maximum moves, river crossing, bridge classes, traffic
  capacity, passing the enemy, bridges blowing), :mod:`~pbem.systems.megagame.orders` (the order
  sheet and its own checks), :mod:`~pbem.systems.megagame.supply`,
  :mod:`~pbem.systems.megagame.report` (a formation's ELETIS report);
* the data: :mod:`~pbem.systems.megagame.profiles`, :mod:`~pbem.systems.megagame.model` (scenario,
  master state, a team's view, rulings), :mod:`~pbem.systems.megagame.oob`,
  :mod:`~pbem.systems.megagame.setup` (a team's copy of a secret set-up);
* a turn: :mod:`~pbem.systems.megagame.board` (the working board and the shared queries),
  :mod:`~pbem.systems.megagame.air` and :mod:`~pbem.systems.megagame.battle` (the air and combat
  phases), :mod:`~pbem.systems.megagame.round` (the order of a turn: movement, supply, arrivals, the
  next state);
* what teams know and write: :mod:`~pbem.systems.megagame.view` (a team's view),
  :mod:`~pbem.systems.megagame.checks` (its sheet against what it knows),
  :mod:`~pbem.systems.megagame.words` (the log in words);
* :mod:`~pbem.systems.megagame.rules` (the ``Ruleset``; it hands out its presenter, imported
  there lazily as the engine asks), and the presentation above it:
  :mod:`~pbem.systems.megagame.mapview`, :mod:`~pbem.systems.megagame.presenter` (text orders,
  templates, the sparring bots).
"""
