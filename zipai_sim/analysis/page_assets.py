"""The inline CSS and JavaScript of the hand-analysis page (``analysis.page``), as string
constants: the page is one self-contained file, so both are pasted into it verbatim.

The script reads two JSON blocks of the page (``#data``: the analysis, ``#labels``: the words in
the page's language), draws the current step (move text, table picture, the decision's answers),
the win-chance curve (inline SVG) and wires the navigation (buttons, slider, ← → Home End).
It uses no ``eval``, no ``fetch`` and loads nothing.
"""

from __future__ import annotations

CSS = """
:root {
  --paper: #f6f1e4; --card: #fffdf7; --ink: #2b2620; --muted: #7a6f60; --rule: #ddd3bf;
  --accent: #9b2d20; --best: #2f6b3a; --played: #1f4e79;
}
* { box-sizing: border-box; }
html {
  min-height: 100%; background: var(--paper);
  background-image: radial-gradient(rgba(120, 100, 60, 0.05) 1px, transparent 1px);
  background-size: 4px 4px;
}
body {
  margin: 0; color: var(--ink);
  font: 15px/1.5 "Noto Serif CJK SC", "Source Han Serif SC", "Songti SC", "SimSun",
        Georgia, "Times New Roman", serif;
}
main { max-width: 1180px; margin: 0 auto; padding: 18px 22px 40px; }
header { border-bottom: 2px solid var(--ink); margin-bottom: 14px; padding-bottom: 6px; }
h1 { margin: 0; font-size: 26px; letter-spacing: 0.02em; }
#header-line { margin: 2px 0 0; color: var(--muted); font-size: 13px;
  font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
h2 { margin: 0 0 8px; font-size: 15px; color: var(--muted); font-weight: normal;
  text-transform: uppercase; letter-spacing: 0.08em; }
.panel { background: var(--card); border: 1px solid var(--rule); border-radius: 6px;
  box-shadow: 0 1px 3px rgba(60, 40, 10, 0.08); padding: 12px 14px; }
nav { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 0 0 12px; }
nav button { font: inherit; font-size: 14px; padding: 4px 12px; cursor: pointer;
  color: var(--ink); background: var(--card); border: 1px solid #b9ab90; border-radius: 4px; }
nav button:hover:not(:disabled) { background: #efe6d2; }
nav button:disabled { color: #b8ad9a; cursor: default; }
#slider { flex: 1 1 220px; accent-color: var(--accent); min-width: 160px; }
#step-label { min-width: 9em; text-align: right; font-variant-numeric: tabular-nums; }
#step-index { font-weight: bold; }
.hint { color: var(--muted); font-size: 12px; width: 100%; text-align: right; margin-top: -4px; }
#move { font-size: 20px; font-weight: bold; color: var(--accent); margin: 0 0 10px;
  min-height: 1.5em; }
.grid { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
.grid > #table-panel { flex: 3 1 520px; min-width: 0; }
.grid > #decision { flex: 2 1 340px; min-width: 0; overflow-x: auto; }
#table { overflow-x: auto; text-align: center; }
#table svg { max-width: 100%; height: auto; }
#decision.empty #values { display: none; }
#decision-title { font-weight: bold; margin-bottom: 2px; }
#decision-sub { color: var(--muted); font-size: 13px; margin-bottom: 8px; }
#values { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
#values th { text-align: left; font-weight: normal; color: var(--muted); font-size: 12px;
  border-bottom: 1px solid var(--ink); padding: 3px 6px; }
#values td { padding: 4px 6px; border-bottom: 1px solid var(--rule); vertical-align: middle; }
#values td.num { text-align: right; white-space: nowrap; }
#values .ci { color: var(--muted); font-size: 12px; }
#values tr.best td { background: rgba(47, 107, 58, 0.09); }
#values tr.played td:first-child { box-shadow: inset 3px 0 0 var(--played); }
#values tr.played.best td:first-child { box-shadow: inset 3px 0 0 var(--best); }
#values td.answer { font-weight: bold; white-space: nowrap; }
#values .mark { font-size: 12px; }
#values .mark span { white-space: nowrap; }
#values .mark .b { color: var(--best); }
#values .mark .p { color: var(--played); }
.bar { display: inline-block; width: 46px; height: 6px; background: #ebe2cf;
  border-radius: 3px; margin-right: 6px; vertical-align: middle; overflow: hidden; }
.bar > i { display: block; height: 100%; background: #c08a3e; }
#curve-panel { margin-top: 14px; }
#curve svg { width: 100%; height: auto; display: block; }
#curve .axis text { font-size: 11px; fill: var(--muted); }
#curve .grid-line { stroke: #e6dcc6; stroke-width: 1; }
#curve .plot { fill: transparent; cursor: crosshair; }
#curve .line { fill: none; stroke-width: 1.8; stroke-linejoin: round; }
#curve .point { cursor: pointer; }
#curve .point .hit { fill: transparent; }
#curve .point.current circle.dot { r: 6; stroke: var(--ink); stroke-width: 1.5; }
#curve-marker { stroke: var(--accent); stroke-width: 1.5; stroke-dasharray: 4 3; }
.legend { display: flex; gap: 16px; font-size: 13px; color: var(--muted); margin-top: 4px; }
.legend span::before { content: ""; display: inline-block; width: 18px; height: 3px;
  margin-right: 5px; vertical-align: middle; background: var(--c); }
.empty-note { color: var(--muted); font-style: italic; }
"""

JS = r"""
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var COLORS = ["#9b2d20", "#1f4e79", "#2f6b3a", "#7b4397", "#b9770e", "#17706e"];
  var data = JSON.parse(document.getElementById("data").textContent);
  var L = JSON.parse(document.getElementById("labels").textContent);
  var steps = data.steps, n = steps.length, cur = 0;
  var $ = function (id) { return document.getElementById(id); };

  function fmt(x) { return Number(x).toFixed(2); }
  function pct(x) { return (100 * x).toFixed(1) + "%"; }
  function seatName(s) { return L.seat.replace("{s}", String(s)); }
  function stepName(i) { return L.step_short.replace("{i}", String(i)); }
  function h(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function s(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(e); }
    return e;
  }

  function renderDecision(d) {
    var box = $("decision"), tbody = $("values").tBodies[0];
    tbody.textContent = "";
    if (!d) {
      box.classList.add("empty");
      $("decision-title").textContent = L.no_decision;
      $("decision-sub").textContent = "";
      return;
    }
    box.classList.remove("empty");
    $("decision-title").textContent = seatName(d.seat) + " · " + d.question;
    $("decision-sub").textContent = L.played + ": " + d.played + "  ·  " + L.best + ": " + d.best;
    var rows = d.rows.slice().sort(function (a, b) { return b.value - a.value; });
    rows.forEach(function (r) {
      var tr = h("tr");
      tr.setAttribute("data-answer", r.answer);
      tr.setAttribute("data-value", String(r.value));
      if (r.played) { tr.classList.add("played"); }
      if (r.best) { tr.classList.add("best"); }
      tr.appendChild(h("td", "answer", r.answer));
      var v = h("td", "num value", fmt(r.value));
      v.appendChild(h("span", "ci", " [" + fmt(r.lo) + ", " + fmt(r.hi) + "]"));
      tr.appendChild(v);
      tr.appendChild(h("td", "num loss", fmt(r.loss)));
      var w = h("td", "num win"), bar = h("span", "bar"), fill = h("i");
      fill.style.width = Math.max(0, Math.min(100, 100 * r.win)).toFixed(1) + "%";
      bar.appendChild(fill);
      w.appendChild(bar);
      w.appendChild(document.createTextNode(pct(r.win)));
      tr.appendChild(w);
      var m = h("td", "mark");
      if (r.best) { m.appendChild(h("span", "b", "★ " + L.best)); }
      if (r.best && r.played) { m.appendChild(document.createTextNode(" ")); }
      if (r.played) { m.appendChild(h("span", "p", "✓ " + L.played)); }
      tr.appendChild(m);
      tbody.appendChild(tr);
    });
  }

  // ---- the win-chance curve ------------------------------------------------------------
  var W = 900, H = 230, ML = 46, MR = 14, MT = 12, MB = 30;
  var marker = null, points = [];
  function xOf(i) { return n > 1 ? ML + (W - ML - MR) * i / (n - 1) : ML + (W - ML - MR) / 2; }
  function yOf(p) { return MT + (H - MT - MB) * (1 - Math.max(0, Math.min(1, p))); }

  function drawCurve() {
    var box = $("curve");
    if (!data.curve.length) { box.appendChild(h("p", "empty-note", L.curve_empty)); return; }
    var svg = s("svg", {viewBox: "0 0 " + W + " " + H, role: "img"}, box);
    s("title", {}, svg).textContent = L.curve;
    var axis = s("g", {"class": "axis"}, svg);
    [0, 0.25, 0.5, 0.75, 1].forEach(function (p) {
      s("line", {"class": "grid-line", x1: ML, x2: W - MR, y1: yOf(p), y2: yOf(p)}, axis);
      var t = s("text", {x: ML - 6, y: yOf(p) + 4, "text-anchor": "end"}, axis);
      t.textContent = Math.round(100 * p) + "%";
    });
    var every = Math.max(1, Math.ceil((n - 1) / 12));
    every = [1, 2, 5, 10, 20, 25, 50, 100].filter(function (c) { return c >= every; })[0] ||
      every;
    for (var i = 0; i < n; i += every) {
      s("line", {"class": "grid-line", x1: xOf(i), x2: xOf(i), y1: H - MB, y2: H - MB + 4}, axis);
      var t = s("text", {x: xOf(i), y: H - MB + 16, "text-anchor": "middle"}, axis);
      t.textContent = String(i);
    }
    var xl = s("text", {x: W - MR, y: H - 2, "text-anchor": "end"}, axis);
    xl.textContent = L.step_axis;
    var plot = s("rect", {"class": "plot", x: ML, y: MT, width: W - ML - MR,
                          height: H - MT - MB}, svg);
    plot.addEventListener("click", function (e) {
      var r = svg.getBoundingClientRect(), x = (e.clientX - r.left) * W / r.width;
      go(n > 1 ? Math.round((x - ML) / (W - ML - MR) * (n - 1)) : 0);
    });
    marker = s("line", {id: "curve-marker", y1: MT, y2: H - MB}, svg);
    var seats = data.seats.slice();
    data.curve.forEach(function (c) { if (seats.indexOf(c.seat) < 0) { seats.push(c.seat); } });
    var legend = h("div", "legend");
    seats.forEach(function (seat, k) {
      var color = COLORS[k % COLORS.length];
      var pts = data.curve.filter(function (c) { return c.seat === seat; })
        .sort(function (a, b) { return a.step - b.step; });
      var item = h("span", "", seatName(seat));
      item.style.setProperty("--c", color);
      legend.appendChild(item);
      if (!pts.length) { return; }
      s("polyline", {"class": "line", stroke: color, points: pts.map(function (c) {
        return xOf(c.step).toFixed(1) + "," + yOf(c.win).toFixed(1); }).join(" ")}, svg);
      pts.forEach(function (c) {
        var g = s("g", {"class": "point", "data-step": c.step, "data-seat": seat}, svg);
        var x = xOf(c.step), lo = yOf(c.lo), hi = yOf(c.hi);
        s("line", {x1: x, x2: x, y1: lo, y2: hi, stroke: color, "stroke-width": 1.2}, g);
        s("line", {x1: x - 3, x2: x + 3, y1: lo, y2: lo, stroke: color}, g);
        s("line", {x1: x - 3, x2: x + 3, y1: hi, y2: hi, stroke: color}, g);
        s("circle", {"class": "dot", cx: x, cy: yOf(c.win), r: 4, fill: color}, g);
        s("circle", {"class": "hit", cx: x, cy: yOf(c.win), r: 10}, g);
        s("title", {}, g).textContent = stepName(c.step) + " · " + seatName(seat) + ": " +
          pct(c.win) + " [" + pct(c.lo) + ", " + pct(c.hi) + "]";
        g.addEventListener("click", function () { go(c.step); });
        points.push(g);
      });
    });
    box.appendChild(legend);
  }

  function updateCurve() {
    if (!marker) { return; }
    marker.setAttribute("x1", xOf(cur));
    marker.setAttribute("x2", xOf(cur));
    points.forEach(function (g) {
      g.classList.toggle("current", Number(g.getAttribute("data-step")) === cur);
    });
  }

  // ---- navigation ----------------------------------------------------------------------
  function render() {
    var st = steps[cur], idx = $("step-index");
    idx.textContent = String(cur);
    idx.setAttribute("data-step", String(cur));
    document.body.setAttribute("data-step", String(cur));
    $("move").textContent = st.move;
    $("table").innerHTML = st.svg;
    renderDecision(st.decision);
    $("slider").value = String(cur);
    $("first").disabled = $("prev").disabled = cur === 0;
    $("next").disabled = $("last").disabled = cur === n - 1;
    updateCurve();
  }
  function go(i) {
    i = Math.max(0, Math.min(n - 1, Math.round(Number(i)) || 0));
    if (i !== cur || !$("move").textContent) { cur = i; render(); }
  }

  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(cur - 1); });
  $("next").addEventListener("click", function () { go(cur + 1); });
  $("last").addEventListener("click", function () { go(n - 1); });
  $("slider").addEventListener("input", function () { go($("slider").value); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.target && e.target.id === "slider") { return; }  // the slider moves itself
    var t = {ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: n - 1}[e.key];
    if (t === undefined) { return; }
    e.preventDefault();
    go(t);
  });
  drawCurve();
  render();
  document.body.setAttribute("data-ready", "1");
})();
"""
