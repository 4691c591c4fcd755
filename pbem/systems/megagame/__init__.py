"""J. Wallman's Operation Market Garden megagame (seed 004): umpired play from written orders.

Built so far: the combat arithmetic (:mod:`pbem.systems.megagame.combat`) and the other tables
(:mod:`pbem.systems.megagame.tables`: interdiction and counter-battery, air resupply, drops,
movement after landing, recce, flak, fighters, ELETIS effectiveness words) and movement
(:mod:`pbem.systems.megagame.movement`: maximum moves, river crossing, bridge classes, traffic
capacity, passing the enemy, bridges blowing), the order sheet and its checks
(:mod:`pbem.systems.megagame.orders`) and a formation's ELETIS report
(:mod:`pbem.systems.megagame.report`). Not built yet: the ruleset (sides and teams, the
adjudication as sealed simultaneous orders with signed rulings, supply and dumps, the reports'
delivery), the orders of battle and the scenario.
"""
