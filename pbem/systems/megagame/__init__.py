"""J. Wallman's Operation Market Garden megagame (seed 004): umpired play from written orders.

Built so far: the combat arithmetic (:mod:`pbem.systems.megagame.combat`) and the other tables
(:mod:`pbem.systems.megagame.tables`: interdiction and counter-battery, air resupply, drops,
movement after landing, recce, flak, fighters, ELETIS effectiveness words) and movement
(:mod:`pbem.systems.megagame.movement`: maximum moves, river crossing, bridge classes, traffic
capacity, passing the enemy, bridges blowing). Not built yet: the ruleset (sides and teams, order
sheets, supply, the umpire's adjudication, the reports), the orders of battle and the scenario.
"""
