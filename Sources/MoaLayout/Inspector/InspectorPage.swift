// Moa — the inspector page: one self-contained HTML file (no network) that draws a layout to scale and explains it.
// `Layout.html` puts the layout's data (JSON) where the template says `__MOA_DATA__`.
//
// The data (`Layout.inspectorJSON`); frames are [x, y, width, height], root space has y down from the screen's
// top-left; optional fields may be null:
//   title, generator: strings;  root: {width, height} (the screen)
//   views: hierarchy order (a view before its subviews), each {name, superview, depth, kind: "root" | "view" |
//     "guide", frame (in the superview), rootFrame, text (lines joined by "\n"), constraints: [ids touching it]}
//   constraints: [{id, equation, line, source, sourceText, note, priority, active, views: [names],
//     violation (points off, 0 = holds)}]
//   violations: [{constraint: id, amount}];  ambiguities: [{view, variable, meaning}]
//   conflicts: [{message, equation, line, with: [{equation, line}]}]
//   trace: [{time (seconds), frames: [{name, rootFrame}]}] (views absent from a snapshot are hidden there)
//
// The page: the drawing (`svg#canvas`, one `g[data-view]` per view), a details panel (`#details`) for the
// hovered or pinned view, lists of `li.constraint[data-id]` (clicking one gives its views' groups the class
// `highlight`), `#conflicts`, `#violations`, `#ambiguities`, `#all-constraints` with `#filter`, and with a
// trace a timeline (`#timeline`, `#time-label`, `#play`). scripts/test-inspector.py drives it in Chromium.

/// The inspector's page; `__MOA_DATA__` is replaced by the data object (JSON, with `<` written as `\u003c`).
let inspectorPageTemplate = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Moa inspector</title>
<link rel="icon" href="data:,">
<style>
:root { --ink: #1f2430; --muted: #6b7280; --line: #dcdfe6; --panel: #fff; --bg: #f3f4f7;
        --accent: #2563eb; --hot: #e4572e; --bad: #b42318; --guide: #7c3aed; }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { display: grid; grid-template: auto minmax(0, 1fr) / minmax(0, 1fr) 430px;
       grid-template-areas: "head head" "stage side"; color: var(--ink); background: var(--bg);
       font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { grid-area: head; display: flex; gap: 14px; align-items: baseline; padding: 8px 14px;
         background: var(--panel); border-bottom: 1px solid var(--line); }
header h1 { margin: 0; font-size: 16px; }
.muted, header .meta { color: var(--muted); }
#stage { grid-area: stage; display: flex; flex-direction: column; min-height: 0; }
#toolbar { display: flex; gap: 12px; align-items: center; padding: 6px 12px; background: var(--panel);
           border-bottom: 1px solid var(--line); }
#timeline-box { flex: 1; display: flex; gap: 8px; align-items: center; }
#timeline { flex: 1; }
#time-label { min-width: 5.5em; font-variant-numeric: tabular-nums; }
#scroller { flex: 1; min-height: 0; overflow: auto; padding: 12px; }
#canvas { display: block; margin: 0 auto; background: #e9ebf0; }
aside { grid-area: side; overflow: auto; padding: 0 14px 14px; background: var(--panel);
        border-left: 1px solid var(--line); }
h2 { margin: 16px 0 6px; font-size: 12px; letter-spacing: .04em; text-transform: uppercase; color: var(--muted); }
h2 .count { display: inline-block; min-width: 1.6em; padding: 0 5px; border-radius: 8px; background: #eef0f4;
            text-align: center; color: var(--ink); }
h2 .count.nonzero { background: #fde2dd; color: var(--bad); }
h3 { margin: 0 0 4px; font-size: 15px; }
ul { list-style: none; margin: 0; padding: 0; }
li { padding: 4px 6px; border-radius: 4px; }
li.constraint, li.view-link { cursor: pointer; }
li.constraint:hover, li.view-link:hover { background: #f1f4fb; }
li.constraint.selected { background: #fff0eb; box-shadow: inset 3px 0 0 var(--hot); }
code { font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap;
       overflow-wrap: anywhere; }
.where, .src, .note, .hint { font-size: 12px; color: var(--muted); }
.src code { color: #444; }
.note { font-style: italic; }
.mark { display: inline-block; margin-left: 6px; padding: 0 5px; border-radius: 3px; font-size: 11px; }
.mark.inactive { background: #eceef2; color: var(--muted); }
.mark.violated { background: #fde2dd; color: var(--bad); }
.badge { margin-left: 6px; font-size: 11px; font-weight: normal; color: var(--muted); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 4px 0 8px; }
dt { color: var(--muted); }
dd { margin: 0; font-variant-numeric: tabular-nums; white-space: pre-wrap; overflow-wrap: anywhere; }
li.conflict { background: #fff6f5; margin-bottom: 4px; }
li.conflict .msg { white-space: pre-wrap; overflow-wrap: anywhere; }
#filter { width: 100%; margin-bottom: 6px; padding: 4px 6px; font: inherit; }
button.more { margin: 4px 6px; font: inherit; }
/* The drawing: strokes stay one screen pixel wide whatever the zoom. */
#canvas rect { vector-effect: non-scaling-stroke; }
#canvas g[data-view] > rect { stroke: #5b6272; stroke-width: 1; fill-opacity: .72; }
#canvas g.root > rect { fill: #fff; fill-opacity: 1; }
#canvas g.guide > rect { fill: none; stroke: var(--guide); stroke-dasharray: 5 3; }
#canvas g.absent { display: none; }
#canvas g.highlight > rect { stroke: var(--hot); stroke-width: 3; }
#canvas text { pointer-events: none; fill: #30343e; }
#canvas text .n { fill: #6b7280; }
#canvas g.guide text { fill: var(--guide); font-style: italic; }
#canvas .veil { fill: #1e2332; fill-opacity: .2; fill-rule: evenodd; pointer-events: none; }
#canvas .screen { fill: none; stroke: #111; stroke-width: 2; pointer-events: none; }
#overlay rect { fill: none; pointer-events: none; }
#overlay .o-hover { stroke: var(--accent); stroke-width: 2; }
#overlay .o-pinned { stroke: var(--accent); stroke-width: 3; }
#overlay .o-highlight { stroke: var(--hot); stroke-width: 3; }
</style>
</head>
<body>
<header>
  <h1 id="title">Moa inspector</h1>
  <span class="meta" id="generator"></span>
  <span class="meta" id="summary"></span>
</header>
<main id="stage">
  <div id="toolbar">
    <div id="timeline-box"></div>
    <label>zoom <select id="zoom">
      <option value="fit">fit</option><option value="width">fit width</option>
      <option value="1">100%</option><option value="2">200%</option><option value="4">400%</option>
    </select></label>
  </div>
  <div id="scroller">
    <svg id="canvas" role="img" aria-label="the layout, to scale">
      <g id="views"></g>
      <path class="veil" id="veil"></path>
      <rect class="screen" id="screen"></rect>
      <g id="overlay"></g>
    </svg>
  </div>
</main>
<aside>
  <h2>View</h2>
  <div id="details"></div>
  <h2>Conflicts <span class="count" id="conflicts-count"></span></h2>
  <ul id="conflicts"></ul>
  <h2>Violations <span class="count" id="violations-count"></span></h2>
  <ul id="violations"></ul>
  <h2>Ambiguities <span class="count" id="ambiguities-count"></span></h2>
  <ul id="ambiguities"></ul>
  <h2>Constraints <span class="count" id="constraints-count"></span></h2>
  <input id="filter" type="search" placeholder="filter: text in the equation, source or note"
         aria-label="filter constraints">
  <ul id="all-constraints"></ul>
</aside>
<script id="moa-data" type="application/json">__MOA_DATA__</script>
<script>
'use strict';
const data = JSON.parse(document.getElementById('moa-data').textContent);
const $ = id => document.getElementById(id);
const SVG = $('canvas').namespaceURI;   // the SVG namespace, without a URL in the page
const views = data.views || [], constraints = data.constraints || [], trace = data.trace || [];
const screenSize = data.root || {width: 0, height: 0};
const LIST_LIMIT = 300;   // items drawn at once in a list; the rest behind a button (large layouts)

// ---- small helpers (data only ever goes in as text or attributes, never as markup) ----
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  e.append(...children.filter(c => c != null));
  return e;
}
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  return e;
}
const num = n => String(Math.round(n * 100) / 100 + 0);   // up to 2 decimals; "+ 0" turns -0 into 0
const frameText = f => f ? `x ${num(f[0])}, y ${num(f[1])}, w ${num(f[2])}, h ${num(f[3])}` : '—';
const seconds = t => `${Number(t).toFixed(3)} s`;
/** A frame as [x, y, w, h] with w, h >= 0, or null when it is missing or not finite. */
function normal(f) {
  if (!Array.isArray(f) || f.length < 4 || !f.every(Number.isFinite)) return null;
  return [Math.min(f[0], f[0] + f[2]), Math.min(f[1], f[1] + f[3]), Math.abs(f[2]), Math.abs(f[3])];
}
/** A soft colour that depends only on the name, so a view keeps it across pages and snapshots. */
function colour(name) {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  h >>>= 0;
  return `hsl(${h % 360} ${55 + (h >>> 9) % 25}% ${76 + (h >>> 17) % 10}%)`;
}
/** Appends render(item) for the first LIST_LIMIT items, then a button that appends the rest. */
function appendCapped(list, items, render) {
  const first = items.slice(0, LIST_LIMIT);
  list.append(...first.map(render));
  if (items.length <= LIST_LIMIT) return;
  const more = el('button', {class: 'more', type: 'button'}, `show ${items.length - LIST_LIMIT} more`);
  more.addEventListener('click', () => { more.replaceWith(...items.slice(LIST_LIMIT).map(render)); });
  list.append(more);
}

// ---- the frames at each position of the timeline ----
// Slider positions 0 ... trace.length - 1 are the recorded snapshots; the last position, trace.length ("now"),
// is the live layout (`views`), where the page opens. So "now" is always one step right of the last snapshot.
const NOW = trace.length;
const liveFrames = new Map(views.map(v => [v.name, normal(v.rootFrame)]));
const snapFrames = trace.map(s => new Map((s.frames || []).map(f => [f.name, normal(f.rootFrame)])));
const framesAt = i => (i >= NOW ? liveFrames : snapFrames[i]);
let position = NOW;

// ---- the drawing ----
// Views in hierarchy order (so subviews come over their superviews), then any view that only the trace knows.
const drawn = views.slice();
const known = new Set(views.map(v => v.name));
for (const s of trace) for (const f of s.frames || []) {
  if (!known.has(f.name)) {
    known.add(f.name);
    drawn.push({name: f.name, superview: null, kind: 'view', frame: null, rootFrame: null, text: null,
                constraints: []});
  }
}
const records = new Map();   // name -> {view, g, rect, box, key}
// A container's name goes to its bottom right, where its subviews' names (top left) do not fall on it.
const containers = new Set(views.map(v => v.superview).filter(s => s != null));
const viewLayer = document.createDocumentFragment();   // put in the page last, after sizing (see the end)
{
  for (const v of drawn) {
    const kind = v.kind || 'view';
    const g = svgEl('g', {'data-view': v.name, class: kind});
    const rect = svgEl('rect');
    if (kind === 'view') rect.setAttribute('fill', colour(v.name));
    // A nested <svg> is a viewport: it clips the label to the view without a clipPath per view.
    const box = svgEl('svg');
    const label = svgEl('text', kind === 'guide' ? {x: '100%', dx: '-0.3em', y: '1em', 'text-anchor': 'end'}
                              : containers.has(v.name) && v.kind !== 'root'
                                ? {x: '100%', dx: '-0.3em', y: '100%', dy: '-0.35em', 'text-anchor': 'end'}
                                : {x: '0.3em', y: '1em'});
    const name = svgEl('tspan', {class: 'n'});
    name.textContent = v.name;
    label.append(name);
    for (const line of v.text != null ? String(v.text).split('\n') : []) {
      const t = svgEl('tspan', {x: '0.3em', dy: '1.15em'});
      t.textContent = line;
      label.append(t);
    }
    box.append(label);
    g.append(rect, box);
    viewLayer.append(g);
    records.set(v.name, {view: v, g, rect, box, key: null});
  }
}
/** Puts a view at a frame (null hides it); touches the DOM only when the frame changed. */
function place(rec, f) {
  const key = f ? f.join() : '';
  if (key === rec.key) return;
  rec.key = key;
  rec.g.classList.toggle('absent', !f);
  if (!f) return;
  rec.g.setAttribute('transform', `translate(${f[0]} ${f[1]})`);
  for (const e of [rec.rect, rec.box]) { e.setAttribute('width', f[2]); e.setAttribute('height', f[3]); }
}

// The drawing covers the screen and every frame of every position, plus a margin.
const bounds = (() => {
  let x0 = 0, y0 = 0, x1 = screenSize.width || 0, y1 = screenSize.height || 0;
  for (const frames of [liveFrames, ...snapFrames]) for (const f of frames.values()) {
    if (!f) continue;
    x0 = Math.min(x0, f[0]); y0 = Math.min(y0, f[1]);
    x1 = Math.max(x1, f[0] + f[2]); y1 = Math.max(y1, f[1] + f[3]);
  }
  const pad = Math.max(8, 0.03 * Math.max(x1 - x0, y1 - y0));
  return {x: x0 - pad, y: y0 - pad, w: x1 - x0 + 2 * pad, h: y1 - y0 + 2 * pad};
})();
{
  const c = $('canvas'), {x, y, w, h} = bounds, W = screenSize.width || 0, H = screenSize.height || 0;
  c.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
  // Everything but the screen is veiled: off-screen views are seen, but not as if they were on it.
  $('veil').setAttribute('d', `M${x} ${y}h${w}v${h}h${-w}z M0 0v${H}h${W}v${-H}z`);
  for (const [k, v] of [['x', 0], ['y', 0], ['width', W], ['height', H]]) $('screen').setAttribute(k, v);
}
/** Sizes the drawing for the zoom choice; labels stay about 11 pixels high. */
function fit() {
  const sc = $('scroller'), mode = $('zoom').value;
  const aw = Math.max(50, sc.clientWidth - 24), ah = Math.max(50, sc.clientHeight - 24);
  let s = mode === 'fit' ? Math.min(aw / bounds.w, ah / bounds.h) : mode === 'width' ? aw / bounds.w : Number(mode);
  if (!(s > 0) || !Number.isFinite(s)) s = 1;
  const c = $('canvas');
  c.setAttribute('width', bounds.w * s);
  c.setAttribute('height', bounds.h * s);
  c.style.fontSize = `${11 / s}px`;
}

// ---- selection state: the hovered view, the pinned view, the highlighted constraint ----
let hovered = null, pinned = null, activeConstraint = null, highlighted = [];
const constraintById = new Map(constraints.map(c => [String(c.id), c]));
const current = () => (pinned != null ? pinned : hovered);

function refresh() { renderDetails(); drawOverlay(); }

/** Outlines over everything (a view's own outline may be under its subviews). */
function drawOverlay() {
  const o = $('overlay'), frames = framesAt(position);
  o.replaceChildren();
  const add = (name, cls) => {
    const f = frames.get(name);
    if (f) o.append(svgEl('rect', {class: cls, x: f[0], y: f[1], width: f[2], height: f[3]}));
  };
  for (const name of highlighted) add(name, 'o-highlight');
  if (current() != null) add(current(), pinned != null ? 'o-pinned' : 'o-hover');
}

function constraintItem(c, amount) {
  const li = el('li', {class: 'constraint', 'data-id': c.id, title: 'click: highlight its views'});
  if (String(c.id) === activeConstraint) li.classList.add('selected');
  li.append(el('code', {class: 'eq'}, c.equation));
  const where = [];
  if (c.line != null) where.push(`line ${c.line}`);
  if (c.source) where.push(c.source);
  const meta = el('div', {class: 'where'}, where.join(' · '));
  if (c.active === false) meta.append(el('span', {class: 'mark inactive'}, 'inactive'));
  const off = amount != null ? amount : c.violation;
  if (off) meta.append(el('span', {class: 'mark violated'}, `violated: off by ${num(off)}`));
  if (meta.textContent) li.append(meta);
  if (c.sourceText && c.sourceText.trim() !== c.equation) {
    li.append(el('div', {class: 'src'}, 'as written: ', el('code', {}, c.sourceText.trim())));
  }
  if (c.note) li.append(el('div', {class: 'note'}, c.note));
  return li;
}

function renderDetails() {
  const box = $('details'), name = current(), rec = name != null ? records.get(name) : null;
  box.replaceChildren();
  if (!rec) {
    box.append(el('p', {class: 'hint'}, 'Hover a view to see it here; click it to pin it (Escape unpins).'));
    return;
  }
  const v = rec.view, frames = framesAt(position), f = frames.get(v.name);
  // In a snapshot only root frames are recorded: the frame in the superview is derived from them.
  let local = null;
  if (position === NOW) local = normal(v.frame);
  else if (f) {
    const s = v.superview != null ? frames.get(v.superview) : [0, 0];
    if (s) local = [f[0] - s[0], f[1] - s[1], f[2], f[3]];
  }
  const when = position === NOW ? '' : ` (at ${seconds(trace[position].time)})`;
  box.append(el('h3', {}, v.name, el('span', {class: 'badge'}, v.kind || 'view'),
                pinned != null ? el('span', {class: 'badge'}, 'pinned') : null));
  const dl = el('dl');
  const row = (k, val) => dl.append(el('dt', {}, k), el('dd', {}, val));
  row('superview', v.superview != null ? v.superview : '—');
  row('frame', local ? frameText(local) : (f ? '—' : 'not in this snapshot'));
  row('frame in root' + when, f ? frameText(f) : 'not in this snapshot');
  if (v.text != null) row('text', String(v.text));
  box.append(dl);
  const ids = v.constraints || [];
  const count = ids.length === 0 ? 'no constraints' : ids.length === 1 ? '1 constraint' : `${ids.length} constraints`;
  box.append(el('div', {class: 'where'}, count));
  const list = el('ul');
  appendCapped(list, ids.map(id => constraintById.get(String(id))).filter(Boolean), c => constraintItem(c));
  box.append(list);
}

function toggleConstraint(id) {
  activeConstraint = activeConstraint === id ? null : id;
  for (const li of document.querySelectorAll('li.constraint.selected')) li.classList.remove('selected');
  for (const name of highlighted) { const r = records.get(name); if (r) r.g.classList.remove('highlight'); }
  const c = activeConstraint != null ? constraintById.get(activeConstraint) : null;
  highlighted = c ? [...new Set(c.views || [])].filter(n => records.has(n)) : [];
  for (const name of highlighted) records.get(name).g.classList.add('highlight');
  if (c) {
    const items = document.querySelectorAll(`li.constraint[data-id="${CSS.escape(activeConstraint)}"]`);
    for (const li of items) li.classList.add('selected');
  }
  drawOverlay();
}

function select(name) { pinned = hovered = name; refresh(); }

// Hover follows the topmost view under the mouse and stays when the mouse leaves the drawing (to reach the panel).
$('canvas').addEventListener('mouseover', e => {
  const g = e.target.closest('g[data-view]');
  if (pinned == null && g && g.dataset.view !== hovered) { hovered = g.dataset.view; refresh(); }
});
$('canvas').addEventListener('click', e => {
  const g = e.target.closest('g[data-view]');
  if (g) select(g.dataset.view); else { pinned = null; refresh(); }
});
document.addEventListener('click', e => {
  const li = e.target.closest('li.constraint');
  if (li) { toggleConstraint(li.dataset.id); return; }
  const link = e.target.closest('li.view-link');
  if (link) select(link.dataset.select);
});
document.addEventListener('keydown', e => {
  if (e.key !== 'Escape') return;
  pinned = null;
  if (activeConstraint != null) toggleConstraint(activeConstraint);
  refresh();
});

// ---- panels: diagnostics and all constraints ----
function fillSection(id, items, render, none) {
  const list = $(id), count = $(`${id}-count`);
  count.textContent = items.length;
  count.classList.toggle('nonzero', items.length > 0);
  if (!items.length) { list.append(el('li', {class: 'muted'}, none)); return; }
  appendCapped(list, items, render);
}
const withLine = (eq, line) =>
  el('div', {}, el('code', {}, eq), line != null ? el('span', {class: 'where'}, ` line ${line}`) : null);
fillSection('conflicts', data.conflicts || [], k => el('li', {class: 'conflict'},
  el('div', {class: 'msg'}, k.message),
  k.equation ? withLine(k.equation, k.line) : null,
  (k.with || []).length ? el('div', {class: 'where'}, 'conflicts with:') : null,
  ...(k.with || []).map(w => withLine(w.equation, w.line))), 'none: every call succeeded');
fillSection('violations', data.violations || [], x => {
  const c = constraintById.get(String(x.constraint));
  return c ? constraintItem(c, x.amount) : el('li', {}, `constraint ${x.constraint}: off by ${num(x.amount)}`);
}, 'none: every optional constraint holds');
fillSection('ambiguities', data.ambiguities || [], a =>
  el('li', {class: 'view-link', 'data-select': a.view, title: 'click: select the view'},
     el('strong', {}, a.view), `: ${a.meaning} `, el('span', {class: 'where'}, `(${a.variable})`)),
  'none: the layout is fully determined');

const searchText = new Map(constraints.map(c =>
  [c, [c.equation, c.sourceText, c.note, c.source, c.line != null ? `line ${c.line}` : ''].join('\n').toLowerCase()]));
function renderAll() {
  const q = $('filter').value.trim().toLowerCase(), list = $('all-constraints');
  const hits = q ? constraints.filter(c => searchText.get(c).includes(q)) : constraints;
  list.replaceChildren();
  $('constraints-count').textContent = q ? `${hits.length} of ${constraints.length}` : constraints.length;
  if (!hits.length) { list.append(el('li', {class: 'muted'}, constraints.length ? 'no match' : 'none')); return; }
  appendCapped(list, hits, c => constraintItem(c));
}
$('filter').addEventListener('input', renderAll);

// ---- timeline ----
let range = null, label = null, playButton = null, frameRequest = 0;
function show(i) {
  position = i;
  const frames = framesAt(i);
  for (const rec of records.values()) place(rec, frames.get(rec.view.name) || null);
  if (range) {
    range.value = i;
    label.textContent = i === NOW ? 'now' : seconds(trace[i].time);
  }
  refresh();
}
function stop() {
  if (frameRequest) cancelAnimationFrame(frameRequest);
  frameRequest = 0;
  if (playButton) playButton.textContent = '▶ play';
}
/** Steps through the snapshots at their recorded times; from the start when at the end or at "now". */
function play() {
  const start = position >= trace.length - 1 ? 0 : position;
  show(start);
  const base = trace[start].time;
  let t0 = null;
  const step = ms => {
    if (t0 == null) t0 = ms;
    const t = base + (ms - t0) / 1000;
    let i = position;
    while (i + 1 < trace.length && trace[i + 1].time <= t) i++;
    if (i !== position) show(i);
    if (i < trace.length - 1) frameRequest = requestAnimationFrame(step); else stop();
  };
  playButton.textContent = '❚❚ pause';
  frameRequest = requestAnimationFrame(step);
}
if (trace.length >= 2) {
  range = el('input', {type: 'range', id: 'timeline', min: 0, max: NOW, step: 1, value: NOW, 'aria-label': 'time'});
  label = el('span', {id: 'time-label'}, 'now');
  playButton = el('button', {id: 'play', type: 'button'}, '▶ play');
  range.addEventListener('input', () => { stop(); show(Number(range.value)); });
  playButton.addEventListener('click', () => (frameRequest ? stop() : play()));
  $('timeline-box').append(playButton, range, label,
    el('span', {class: 'muted'},
       `${trace.length} snapshots, ${seconds(trace[0].time)} to ${seconds(trace[NOW - 1].time)}; right end: now`));
} else {
  $('timeline-box').append(el('span', {class: 'muted'}, 'no recorded motion'));
}

// ---- start ----
$('title').textContent = data.title || 'layout';
document.title = `${data.title || 'layout'} — Moa inspector`;
$('generator').textContent = data.generator || '';
$('summary').textContent =
  `${screenSize.width} × ${screenSize.height} · ${views.length} views · ${constraints.length} constraints`;
renderAll();
show(NOW);
// Sizing reads the page's layout: done before the views are in it, that layout is cheap (10k views: 1 s less).
fit();
$('views').append(viewLayer);
$('zoom').addEventListener('change', fit);
window.addEventListener('resize', fit);
</script>
</body>
</html>
"""#
