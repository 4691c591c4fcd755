"""Vae Victis *Arnhem 1944* (seed 003): the combat layer.

* ``tables``: the Combat Results Table and the Terrain Effects Chart as replaceable data
  (``scenarios/arnhem1944-crt.json``, ``scenarios/arnhem1944-tec.json``, both RECONSTRUCTED: the
  rule text lacks them), their loaders and ``table_problems``;
* ``combat``: attack types, odds, column shifts, the result's split, retreat and advance [4, 7];
* ``artillery``: range, bombardment, fire support, divisional integrity [8].
"""
