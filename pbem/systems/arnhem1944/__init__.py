"""Vae Victis *Arnhem 1944* (seed 003): the rules system ``arnhem1944``.

* ``tables``: the Combat Results Table and the Terrain Effects Chart as replaceable data
  (``scenarios/arnhem1944-crt.json``, ``scenarios/arnhem1944-tec.json``, both RECONSTRUCTED: the
  rule text lacks them), their loaders and ``table_problems``;
* ``combat``: attack types, odds, column shifts, the result's split, retreat and advance [4, 7];
* ``artillery``: range, bombardment, fire support, divisional integrity [8];
* ``model``: the scenario data; ``state`` and ``orders``: a game's state and its orders (one
  activation, pass or drop per move file);
* ``rules``: the ruleset ``arnhem1944`` (sequence of play, activations, movement, zones, stacking,
  combat, command, supply, positions, bridges, air, weather, reinforcements, victory, the optional
  rules) on ``board`` (the map as the rules ask it);
* ``presenter``, ``mapview``, ``bot``: words, text orders, the map view and the sparring bot.
"""
