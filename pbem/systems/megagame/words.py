"""The megagame's log in words: each event of a turn as ``pbem log`` and the publication tell it
(Game Control's view: numbers, dice and rule cases; a team's report is written by
:mod:`pbem.systems.megagame.view`)."""

from __future__ import annotations

from pbem.engine.ruleset import JSON
from pbem.systems.megagame.round import REST_TURNS


def describe_event(event: JSON) -> str | None:
    """An event of the megagame's log in words, or None for a kind the engine describes."""
    kind = event.get("kind")
    if kind == "interdiction-passing":
        return f"{event['unit']} passes the bombed point {event['at']} (die {event['die']}): {event['result']} [9]"
    if kind == "turned-back":
        return f"enemy fighters put {event['unit']}'s serial out of action: it does not land this turn [12]"
    if kind == "rested":
        return f"{event['unit']} has rested {REST_TURNS} turns out of contact: one step back [5]"
    if kind == "moved":
        if len(event["path"]) == 1:  # stopped before its first step: it did not move
            return f"{event['unit']} stays at {event['path'][0]}" + (
                f": {event['stop']}" if event.get("stop") else "")
        return f"{event['unit']} moves {' '.join(event['path'])}" + (
            f" and stops: {event['stop']}" if event.get("stop") else "")
    if kind == "combat":
        again = ", a further attack after an overrun, unprepared" if event.get("further") else ""
        return (f"combat at {event['at']} [9{again}]: {', '.join(event['attackers'])} against "
                f"{', '.join(event['defenders'])}: {event['attacker_score']} - {event['defender_score']} "
                f"+ die {event['die']} = {event['result']}, {event['band']}; {event['retreat']}"
                + _air_words(event))
    if kind == "bridge":
        return f"the {event['bridge']} {'blows' if event['blown'] else 'holds'} (die {event['die']}) [8]"
    if kind == "rulings":
        parts = [f"attackers at {g['at']}: {', '.join(g['attackers'])}" for g in event.get("groupings", [])]
        parts += [f"clear tactical advantage to the {a['side']} at {a['at']}: +{a['points']} for each of its "
                  f"units ({a['why']})"
                  for a in event.get("advantage", [])]
        return "Game Control rules: " + ("; ".join(parts) or "nothing") + " [9]"
    if kind == "note":
        return str(event["text"])
    if kind == "captured":
        return f"at {event['at']} {', '.join(event['units'])} could not fight or get away: captured [9]"
    if kind == "interdiction":
        hits = ", ".join(f"{h['unit']} die {h['die']}: {h['result']}" for h in event["hits"]) or "no target"
        if event.get("by") == "artillery":
            n = event["battalions"]
            return (f"{', '.join(event['units'])} of {event['team']} shell {event['at']} on the interdiction table, "
                    f"{n} battalion{'' if n == 1 else 's'}: {hits} [9]")
        n = event["squadrons"]
        heavy = "heavy " if event.get("heavy") else ""
        return f"{event['team']} bombs {event['at']} with {n} {heavy}squadron{'' if n == 1 else 's'}: {hits} [9]"
    if kind == "recce" and "looks" in event:  # rules version 3: the air zone, a die a target [12d]
        looks = "; ".join(f"{x['hex']} ({x['target']}) die {x['die']}: {x['seen']}" for x in event["looks"])
        return (f"{event['team']}'s air recce over the zone within {event['zone_km']} km of {event['at']}: "
                f"{looks or 'no enemy out of cover'} [12]")
    if kind == "recce":
        return f"{event['team']}'s air recce over {event['at']} (die {event['die']}): {event['seen']} [12]"
    if kind == "resupply":
        factors = f", {', '.join(event['factors'])}" if event["factors"] else ""
        return (f"{event['team']}'s air resupply on {event['at']}: {event['landed']} of {event['dropped']} "
                f"points land (die {event['die']}{factors})"
                + (", collected" if event["collected"] else ", not collected") + " [11, 12]")
    if kind == "air-combat":
        losses = ", ".join(f"{s} {n}" for s, n in sorted(event["losses"].items()))
        return (f"air combat, the {event['attacker']} fighters attacking (die {event['die']}): "
                f"{event['result']}; squadrons lost: {losses} [12]")
    if kind == "drop":
        night = " by night" if event.get("night") else ""
        back = (f", the scattered men back after {event['stragglers_die']} turn"
                f"{'s' if event['stragglers_die'] > 1 else ''}" if "stragglers_die" in event else "")
        return (f"{event['unit']} drops{night} (dice {event['dice'][0]}, {event['dice'][1]}): "
                f"{event['result']}{back} [12]")
    if kind == "rail":
        return f"{event['unit']} goes by rail from {event['from']} to {event['to']} [6]"
    if kind == "overrun":
        moves = "; ".join(f"{m['unit']} {' '.join(m['path'])}" for m in event["moves"])
        return f"overrun at {event['at']} ({event['band']}): {moves} [results table]"
    if kind == "counter-battery":
        found = (f"fixed, fire die {event['fire']}: {event['result']}" if event["fixed"] else "not found")
        return (f"counter-battery by {', '.join(event['by'])} on {event['battery']} (die {event['die']}, "
                f"firing from there {event['turns']} turn{'s' if event['turns'] > 1 else ''}): {found} [9]")
    if kind == "delayed":
        return f"{event['unit']} cannot fly from England in this weather: its lift waits [12]"
    return None


def _air_words(event: JSON) -> str:
    """The air support a combat had, in the log's words (close air support, cab rank, heavies)."""
    parts = [f"{who} {event.get(key)}" for who, key in (("attacker", "air"), ("defender", "defender_air"))
             if event.get(key, "none") != "none"]
    return f" (air support [9, 12]: {', '.join(parts)})" if parts else ""
