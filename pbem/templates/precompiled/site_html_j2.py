from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'site.html.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_title = resolve('title')
    l_0_game_id = resolve('game_id')
    l_0_steps = resolve('steps')
    l_0_outcome = resolve('outcome')
    l_0_viewer = resolve('viewer')
    l_0_chart = resolve('chart')
    l_0_steps_json = resolve('steps_json')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_2 = environment.filters['safe']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'safe' found.")
    pass
    yield '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>'
    yield escape((undefined(name='title') if l_0_title is missing else l_0_title))
    yield '</title>\n<style>\n  body { font-family: Verdana, "DejaVu Sans", Arial, sans-serif; color: #1d1d1d; margin: 0; background: #f7f5ee; }\n  header { padding: 0.6em 1em; background: #2f3b2f; color: #fff; }\n  header h1 { font-size: 1.2em; margin: 0; }\n  header p { margin: 0.2em 0 0; font-size: 0.85em; color: #d8e0d0; }\n  nav { display: flex; gap: 0.5em; align-items: center; padding: 0.5em 1em; background: #e8e4d6; flex-wrap: wrap; }\n  nav button { font-size: 1em; padding: 0.3em 0.9em; }\n  nav select { font-size: 1em; max-width: 60vw; }\n  main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(16em, 2fr); gap: 1em; padding: 1em; }\n  #mapbox { overflow: auto; max-height: 85vh; border: 1px solid #bbb; background: #fff; }\n  #map img { display: block; width: 100%; height: auto; background: #fff; }\n  #zoombar { display: flex; gap: 0.4em; align-items: center; margin-bottom: 0.3em; font-size: 0.9em; }\n  #zoombar button { font-size: 1em; min-width: 2.2em; }\n  #map .nomap { color: #666; font-style: italic; }\n  section h2 { font-size: 1em; margin: 0.8em 0 0.3em; }\n  ul { margin: 0.2em 0; padding-left: 1.2em; overflow-wrap: anywhere; }\n  table.rolls { border-collapse: collapse; font-size: 0.85em; }\n  table.rolls td, table.rolls th { border: 1px solid #ccc; padding: 0.15em 0.4em; text-align: left; }\n  code { font-size: 0.85em; word-break: break-all; }\n  .muted { color: #666; font-size: 0.85em; overflow-wrap: anywhere; }\n  main > div { min-width: 0; }\n  @media (max-width: 760px) { main { grid-template-columns: minmax(0, 1fr); } }\n</style>\n</head>\n<body>\n<header>\n  <h1>'
    yield escape((undefined(name='title') if l_0_title is missing else l_0_title))
    yield '</h1>\n  <p>Game '
    yield escape((undefined(name='game_id') if l_0_game_id is missing else l_0_game_id))
    yield ' &middot; '
    yield escape(t_1((undefined(name='steps') if l_0_steps is missing else l_0_steps)))
    yield ' turn files &middot; '
    yield escape(((undefined(name='outcome') if l_0_outcome is missing else l_0_outcome) or 'in progress'))
    if (undefined(name='viewer') if l_0_viewer is missing else l_0_viewer):
        pass
        yield ' &middot; as '
        yield escape((undefined(name='viewer') if l_0_viewer is missing else l_0_viewer))
        yield ' sees it'
    yield '</p>\n</header>\n<nav aria-label="steps">\n  <button id="prev" title="previous step (left arrow)">&larr;</button>\n  <select id="pick" aria-label="step">\n    '
    for l_1_s in (undefined(name='steps') if l_0_steps is missing else l_0_steps):
        _loop_vars = {}
        pass
        yield '<option value="'
        yield escape(environment.getattr(l_1_s, 'step'))
        yield '">'
        yield escape(environment.getattr(l_1_s, 'heading'))
        yield '</option>\n    '
    l_1_s = missing
    yield '\n  </select>\n  <button id="next" title="next step (right arrow)">&rarr;</button>\n  <a id="permalink" href="#step-0">permalink</a>\n</nav>\n<main>\n  <div>\n    <div id="zoombar" aria-label="map zoom">\n      <button id="zoom-out" title="zoom out (-)">&minus;</button>\n      <button id="zoom-in" title="zoom in (+)">+</button>\n      <button id="zoom-fit" title="fit the width (0)">fit</button>\n      <span id="zoom-level">100%</span>\n      <a id="fullmap" href="#" target="_blank" rel="noopener">full-size map</a>\n    </div>\n    <div id="mapbox"><div id="map"></div></div>\n  </div>\n  <div>\n    <section><h2 id="heading"></h2><p id="pending" class="muted"></p></section>\n    <section><h2>Orders</h2><ul id="orders"></ul></section>\n    <section><h2>What happened</h2><ul id="events"></ul></section>\n    <section><h2>Dice</h2><div id="rolls"></div></section>\n    <section><h2>Score</h2><p id="score"></p>'
    yield escape(t_2((undefined(name='chart') if l_0_chart is missing else l_0_chart)))
    yield '</section>\n  </div>\n</main>\n<script id="steps" type="application/json">'
    yield escape(t_2((undefined(name='steps_json') if l_0_steps_json is missing else l_0_steps_json)))
    yield '</script>\n<script>\n(function () {\n  "use strict";\n  var steps = JSON.parse(document.getElementById("steps").textContent);\n  var index = 0;\n  var zoom = 1;\n  var ZOOMS = [1, 1.5, 2, 3, 4, 6];\n  function el(id) { return document.getElementById(id); }\n  function list(id, lines) {\n    var ul = el(id); ul.textContent = "";\n    if (!lines.length) { var li = document.createElement("li"); li.textContent = "(none)"; li.className = "muted"; ul.appendChild(li); }\n    lines.forEach(function (t) { var li = document.createElement("li"); li.textContent = t; ul.appendChild(li); });\n  }\n  function show(i) {\n    index = Math.max(0, Math.min(steps.length - 1, i));\n    var s = steps[index];\n    el("heading").textContent = s.heading;\n    el("pending").textContent = s.pending;\n    list("orders", s.orders);\n    list("events", s.events);\n    var map = el("map"); map.textContent = "";\n    if (s.map) { var img = document.createElement("img"); img.src = s.map; img.alt = "map after step " + s.step; map.appendChild(img);\n      el("fullmap").href = s.map; el("fullmap").style.visibility = "visible"; }\n    else { var p = document.createElement("p"); p.className = "nomap"; p.textContent = "no map for this step"; map.appendChild(p);\n      el("fullmap").style.visibility = "hidden"; }\n    setZoom(zoom);\n    var r = el("rolls"); r.textContent = "";\n    if (s.rolls.length) {\n      var t = document.createElement("table"); t.className = "rolls";\n      t.innerHTML = "<tr><th>die</th><th>value</th><th>for</th><th>ctr</th></tr>";\n      s.rolls.forEach(function (x) { var tr = document.createElement("tr");\n        [x.i, x.value, x.label, x.ctr].forEach(function (v) { var td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td); });\n        t.appendChild(tr); });\n      r.appendChild(t);\n      var how = document.createElement("p"); how.className = "muted";\n      how.textContent = "roll key " + s.roll_key + ": die i is 1 + b mod 6 for the first byte b < 252 of HMAC-SHA256(roll key, JCS({ds: \\"pbem/d6/v1\\", i, ctr})); \'pbem log\' and \'pbem verify\' recompute them.";\n      r.appendChild(how);\n    } else { var n = document.createElement("p"); n.className = "muted"; n.textContent = "no dice this step"; r.appendChild(n); }\n    el("score").textContent = s.score;\n    el("pick").value = String(s.step);\n    el("permalink").href = "#step-" + s.step;\n    if (location.hash !== "#step-" + s.step) { history.replaceState(null, "", "#step-" + s.step); }\n    document.body.setAttribute("data-step", String(s.step));\n  }\n  function setZoom(z) {\n    var box = el("mapbox");\n    var cx = (box.scrollLeft + box.clientWidth / 2) / Math.max(1, box.scrollWidth);\n    var cy = (box.scrollTop + box.clientHeight / 2) / Math.max(1, box.scrollHeight);\n    zoom = z;\n    el("map").style.width = (zoom * 100) + "%";\n    el("zoom-level").textContent = Math.round(zoom * 100) + "%";\n    box.scrollLeft = cx * box.scrollWidth - box.clientWidth / 2;\n    box.scrollTop = cy * box.scrollHeight - box.clientHeight / 2;\n  }\n  function zoomBy(d) {\n    var i = ZOOMS.indexOf(zoom);\n    setZoom(ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (i < 0 ? 0 : i) + d))]);\n  }\n  function fromHash() {\n    var m = /^#step-(\\d+)$/.exec(location.hash);\n    if (!m) { return 0; }\n    var want = parseInt(m[1], 10);\n    for (var i = 0; i < steps.length; i++) { if (steps[i].step === want) { return i; } }\n    return 0;\n  }\n  el("zoom-in").addEventListener("click", function () { zoomBy(1); });\n  el("zoom-out").addEventListener("click", function () { zoomBy(-1); });\n  el("zoom-fit").addEventListener("click", function () { setZoom(1); });\n  el("prev").addEventListener("click", function () { show(index - 1); });\n  el("next").addEventListener("click", function () { show(index + 1); });\n  el("pick").addEventListener("change", function () { for (var i = 0; i < steps.length; i++) { if (String(steps[i].step) === el("pick").value) { show(i); } } });\n  document.addEventListener("keydown", function (e) {\n    if (e.key === "ArrowLeft") { show(index - 1); e.preventDefault(); }\n    if (e.key === "ArrowRight") { show(index + 1); e.preventDefault(); }\n    if (e.key === "+" || e.key === "=") { zoomBy(1); e.preventDefault(); }\n    if (e.key === "-") { zoomBy(-1); e.preventDefault(); }\n    if (e.key === "0") { setZoom(1); e.preventDefault(); }\n  });\n  window.addEventListener("hashchange", function () { show(fromHash()); });\n  show(fromHash());\n})();\n</script>\n</body>\n</html>\n'

blocks = {}
debug_info = '9=31&36=33&37=35&42=46&64=56&67=58'

# ruff: noqa
# mypy: ignore-errors
# Generated by python -m pbem.templates.precompile from the packaged template site.html.j2 (Jinja2 3.1.6, source sha1 b443a40356f37406488b0737662ee40553539781): do not edit.
