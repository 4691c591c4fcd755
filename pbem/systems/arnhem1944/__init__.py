"""Vae Victis *Arnhem 1944* (seed 003): the rules system ``arnhem1944``.

* ``tables``: the Combat Results Table and the Terrain Effects Chart as replaceable data
  (``scenarios/arnhem1944-crt.json``, ``scenarios/arnhem1944-tec.json``, both RECONSTRUCTED: the
  rule text lacks them), their loaders and ``table_problems``;
* ``combat``: attack types, odds, column shifts, the result's split, retreat and advance [4, 7];
* ``artillery``: range, bombardment, fire support, divisional integrity [8];
* ``model``: the scenario data; ``state`` and ``orders``: a game's state and its orders (one
  activation, pass or drop per move file);
* ``queries``: the game's values and questions about a position (zones, allowances, paths, who
  may still activate, command and supply [9, 10], the bridgehead [16]) on ``board`` (the map as
  the rules ask it);
* ``activation``: the sequence of a game-turn (segments, its end, weather, drops, initiative,
  stacking, victory [2, 5, 14, 15.2, 16]) and one activation with its moves, entries and
  positions [3, 4, 6, 11, 12, 15]; ``fighting``: an activation's combat steps (attacks,
  bombardments, losses, retreats, advances [7, 8, 13]);
* ``rules``: the ruleset ``arnhem1944`` (the ``Ruleset`` adapter: loading, the start, whose
  decision, checking the orders, resolution by kind of order, score and outcome) and the readings
  of the text;
* ``words``: events, actions and standing orders in words; ``presenter``, ``mapview``,
  ``template``, ``bot``: text orders, the map view, the orders file and the sparring bot.
"""
