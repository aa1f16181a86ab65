// The board in the browser: draws the state the engine sends (GET /api/state) and sends the
// player's commands (POST /api/command). The game lives in the engine; this page only shows it.
"use strict";

const FILES = "abcdefgh";
const POLL_MS = 300;
let token = null;
let state = null;
let lastShown = null; // the last move whose flips were animated
let editing = null; // the position being set up: 64 characters X, O, -
let focusIndex = 0;
let polling = false;
let unreachable = false; // the last request found no engine: its message goes once one answers
let shownPly = null; // the move and game length the move list last scrolled to

const $ = (id) => document.getElementById(id);

function squareName(i) {
  return FILES[i % 8] + String(Math.floor(i / 8) + 1);
}

// ---------------------------------------------------------------- talking to the engine

async function claim(force) {
  const r = await fetch("/api/claim", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ force }),
  });
  const body = await r.json();
  if (!r.ok) {
    showOverlay(body.error);
    return false;
  }
  token = body.token;
  errorShown = false;
  // The engine may have been restarted (its versions count from 0 again) or another tab may have
  // changed the game: the next state is taken whatever its version.
  state = null;
  hideOverlay();
  return true;
}

async function api(command) {
  if (!token) return null;
  errorShown = false;
  let r;
  try {
    r = await fetch("/api/command", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Wedge-Token": token },
      body: JSON.stringify(command),
    });
  } catch (e) {
    say("The engine does not answer (was wedge gui stopped?)", true);
    unreachable = true;
    return null;
  }
  const body = await r.json().catch(() => ({ error: "no answer from the engine" }));
  if (!r.ok) {
    if (body.kind === "not_owner") {
      token = null;
      showOverlay(body.error);
    } else {
      say(body.error, true);
    }
    return null;
  }
  if (body.board !== undefined) render(body);
  return body;
}

async function poll() {
  if (polling) return;
  polling = true;
  try {
    if (token) {
      const r = await fetch("/api/state", { headers: { "X-Wedge-Token": token } });
      const body = await r.json().catch(() => null);
      if (r.ok && body) {
        if (unreachable) {
          unreachable = false;
          errorShown = false;
        }
        render(body);
      } else if (body && body.kind === "not_owner") {
        token = null;
        showOverlay(body.error);
      }
    }
  } catch (e) {
    say("The engine does not answer (was wedge gui stopped?)", true);
    unreachable = true;
  } finally {
    polling = false;
  }
}

function showOverlay(text) {
  $("overlay-text").textContent = cap(text);
  $("overlay").hidden = false;
  $("take-over").focus();
}

function hideOverlay() {
  $("overlay").hidden = true;
}

let errorShown = false;
function say(text, error) {
  const s = $("status");
  s.textContent = text && error ? cap(text) : text || "";
  s.classList.toggle("error", !!error);
  errorShown = !!error;
}

// ---------------------------------------------------------------- drawing

function buildBoard() {
  const board = $("board");
  for (let i = 0; i < 64; i++) {
    const b = document.createElement("button");
    b.className = "square";
    b.dataset.square = squareName(i);
    b.dataset.index = i;
    b.setAttribute("role", "gridcell");
    b.tabIndex = i === 0 ? 0 : -1;
    b.addEventListener("click", () => squareClicked(i));
    board.appendChild(b);
  }
  board.addEventListener("keydown", boardKey);
}

function boardKey(e) {
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -8, ArrowDown: 8 };
  if (!(e.key in moves)) return;
  e.preventDefault();
  const next = focusIndex + moves[e.key];
  if (next < 0 || next > 63) return;
  if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && Math.floor(next / 8) !== Math.floor(focusIndex / 8)) return;
  setFocus(next);
}

function setFocus(i) {
  const squares = $("board").children;
  squares[focusIndex].tabIndex = -1;
  focusIndex = i;
  squares[i].tabIndex = 0;
  squares[i].focus();
}

function squareClicked(i) {
  setFocus(i);
  if (editing) {
    const order = { "-": "X", X: "O", O: "-" };
    editing = editing.slice(0, i) + order[editing[i]] + editing.slice(i + 1);
    drawBoard();
    return;
  }
  if (!playable()) return;
  const name = squareName(i);
  if (state.legal.includes(name)) api({ type: "move", square: name });
}

// Whether a person may play on the board: their turn, or anywhere while reviewing or paused.
function playable() {
  return Boolean(state && (state.settings[state.side] === "human" || state.ply < state.moves.length || state.paused));
}

function fmtScore(s) {
  return s ? s.text : "";
}

function drawBoard() {
  const squares = $("board").children;
  const board = editing || (state ? state.board : "-".repeat(64));
  const legal = new Set(!editing && playable() ? state.legal : []);
  const hints = new Map(!editing && state ? state.hints.map((h) => [h.square, h]) : []);
  const last = !editing && state && state.last ? state.last : null;
  const animate = last && JSON.stringify(last) + state.ply !== lastShown;
  if (last) lastShown = JSON.stringify(last) + state.ply;
  const flips = new Set(last ? last.flips : []);
  for (let i = 0; i < 64; i++) {
    const sq = squares[i];
    const name = squareName(i);
    const c = board[i];
    const colour = c === "X" ? "black" : c === "O" ? "white" : "";
    let label = name + (colour ? ", " + colour : ", empty");
    sq.className = "square";
    sq.replaceChildren();
    if (colour) {
      const p = document.createElement("span");
      p.className = "piece " + colour;
      sq.appendChild(p);
    }
    if (editing) sq.classList.add("editing");
    if (legal.has(name)) {
      sq.classList.add("legal");
      label += ", legal move";
    }
    if (last && last.square === name) {
      sq.classList.add("last");
      label += ", last move";
    }
    if (flips.has(name)) {
      sq.classList.add(animate ? "flipped" : "flipped-still");
    }
    const h = hints.get(name);
    if (h) {
      const t = document.createElement("span");
      t.className = "hint" + (h.best ? " best" : "") + (h.score.exact ? " exact" : "");
      const v = h.score.exact ? Math.round(h.score.discs) : Number(h.score.discs.toFixed(1));
      t.textContent = (v > 0 ? "+" : "") + (h.score.exact ? String(v) : v.toFixed(1));
      sq.classList.add("hinted");
      sq.appendChild(t);
      label += ", hint " + fmtScore(h.score);
    }
    sq.setAttribute("aria-label", label);
  }
}

function clockText(ms) {
  // A flag shows 0:00 until a whole second is over.
  const neg = ms <= -1000;
  const s = Math.floor(Math.abs(ms) / 1000);
  return (neg ? "-" : "") + Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function render(s) {
  // An answer that crossed a newer one on the way is old news.
  if (state && s.version < state.version) return;
  const first = !state;
  if (errorShown && state && (s.ply !== state.ply || s.moves.length !== state.moves.length)) errorShown = false;
  state = s;
  drawBoard();
  $("black-count").textContent = s.black;
  $("white-count").textContent = s.white;
  const who = (c) => (s.settings[c] === "engine" ? "wedge (level " + s.settings.level + ", " + s.level_name + ")" : "you");
  $("players").textContent = "Black: " + who("black") + " · White: " + who("white");
  // Clocks.
  for (const c of ["black", "white"]) {
    const el = $("clock-" + c);
    el.hidden = !s.clocks;
    if (s.clocks) {
      const ms = s.clocks[c === "black" ? 0 : 1];
      el.textContent = clockText(ms);
      el.classList.toggle("running", !s.over && s.side === c && s.ply === s.moves.length && !(s.paused && s.settings[c] === "engine"));
      el.classList.toggle("low", ms < 10000);
    }
  }
  // The status line.
  if (!errorShown) {
    let text;
    if (s.over) text = "Game over: " + s.result + ".";
    else if (s.thinking && s.thinking.kind === "move") text = "wedge is thinking (" + s.side + ")…";
    else if (s.ply < s.moves.length) text = cap(s.side) + " to move (reviewing move " + s.ply + " of " + s.moves.length + ")";
    else if (s.settings[s.side] === "engine" && s.paused) text = cap(s.side) + " to move: the engine is paused.";
    else text = cap(s.side) + " to move.";
    if (s.message && !s.over) text = s.message + " " + text;
    say(text, false);
  }
  renderedVersion = s.version;
  // Buttons.
  $("undo").disabled = s.ply === 0;
  $("redo").disabled = s.ply >= s.moves.length;
  $("move-now").disabled = !s.thinking || s.thinking.kind === "value";
  $("pause").setAttribute("aria-pressed", String(s.paused));
  $("hints").setAttribute("aria-pressed", String(s.hints_on));
  // Thinking.
  const t = s.thinking;
  const th = $("thinking");
  if (t && t.kind !== "value") {
    th.replaceChildren();
    const what = t.kind === "hint" ? "Hints" : "wedge";
    const line = document.createElement("div");
    line.textContent = t.depth === 0 && !t.score
      ? what + ": searching…"
      : what + ": depth " + t.depth + (t.score ? " · score " + t.score.text : "") + " · " + fmtCount(t.nodes) +
        " nodes · " + fmtCount(t.nps) + " nodes/s · " + (t.ms / 1000).toFixed(1) + " s";
    const pv = document.createElement("div");
    pv.className = "pv";
    pv.textContent = t.pv.length ? "line: " + t.pv.join(" ") : "";
    th.append(line, pv);
  } else if (!t) {
    th.replaceChildren();
  }
  // Win probability.
  if (s.black_win !== null && s.black_win !== undefined) {
    const p = Math.round(s.black_win * 100);
    $("win-black").style.width = p + "%";
    $("win-text").textContent = "Black " + p + "% · White " + (100 - p) + "%";
  } else {
    $("win-black").style.width = "50%";
    $("win-text").textContent = "";
  }
  drawGraph(s);
  drawMoves(s);
  // Analysis.
  const a = s.analysis;
  $("stop-analysis").hidden = !(a && a.running);
  $("analyze").disabled = !!(a && a.running) || s.moves.length === 0;
  let at = "";
  if (a && a.running) at = "Analysing: " + a.done + " of " + a.total + " positions…";
  else if (a && a.error) at = "The analysis stopped: " + a.error;
  else if (a && a.mean_loss) at = "Mean loss a move: Black " + a.mean_loss[0].toFixed(2) + ", White " + a.mean_loss[1].toFixed(2) + " discs.";
  $("analysis-text").textContent = at;
  // The form follows the server's settings (Swap, Load, another tab) unless the person has
  // changed it and not yet applied it.
  const drawn = JSON.stringify(s.settings);
  if (first || (drawn !== formDrawn && !formEdited)) fillForm(s);
}
// The settings last written into the form, and whether the person has changed the form since.
let formDrawn = "";
let formEdited = false;
let renderedVersion = -1;

function cap(c) {
  return c[0].toUpperCase() + c.slice(1);
}

function fmtCount(n) {
  if (n >= 1e9) return (n / 1e9).toFixed(1) + "G";
  if (n >= 1e6) return (n / 1e6).toFixed(1) + "M";
  if (n >= 1e3) return (n / 1e3).toFixed(1) + "k";
  return String(n);
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}

function drawGraph(s) {
  const g = $("graph");
  g.replaceChildren();
  const W = 600, H = 160, R = 24; // R: the discs at the top and bottom edges
  const n = Math.max(s.moves.length, 20);
  const x = (i) => (i / n) * (W - 10) + 5;
  const y = (v) => H / 2 - (Math.max(-R, Math.min(R, v)) / R) * (H / 2 - 6);
  for (const v of [-16, -8, 8, 16]) g.appendChild(svg("line", { class: "grid", x1: 0, x2: W, y1: y(v), y2: y(v) }));
  g.appendChild(svg("line", { class: "axis", x1: 0, x2: W, y1: H / 2, y2: H / 2 }));
  const marks = new Map(s.moves.map((m, i) => [i + 1, m.mark]));
  const pts = [];
  s.graph.forEach((v, i) => {
    if (v !== null && v !== undefined) pts.push([i + 1, v]);
  });
  if (pts.length > 1) {
    const d = pts.map(([i, v]) => x(i) + "," + y(v)).join(" ");
    g.appendChild(svg("polyline", { class: "line", points: d }));
  }
  g.appendChild(svg("line", { class: "now", x1: x(s.ply), x2: x(s.ply), y1: 0, y2: H }));
  for (const [i, v] of pts) {
    const c = svg("circle", { class: "point" + (marks.get(i) ? " mark" : ""), cx: x(i), cy: y(v), r: marks.get(i) ? 4.5 : 3, "data-ply": i });
    const title = svg("title", {});
    title.textContent = "move " + i + ": " + (v > 0 ? "+" : "") + v.toFixed(1) + " for Black" + (marks.get(i) ? " " + marks.get(i) : "");
    c.appendChild(title);
    c.addEventListener("click", () => api({ type: "goto", ply: i }));
    g.appendChild(c);
  }
}

function drawMoves(s) {
  const ol = $("moves");
  const items = ol.children;
  while (items.length > s.moves.length) ol.removeChild(ol.lastChild);
  s.moves.forEach((m, i) => {
    let li = items[i];
    if (!li) {
      li = document.createElement("li");
      const b = document.createElement("button");
      b.addEventListener("click", () => api({ type: "goto", ply: i + 1 }));
      li.appendChild(b);
      ol.appendChild(li);
    }
    const b = li.firstChild;
    const mark = m.mark ? " " + m.mark : "";
    b.replaceChildren(document.createTextNode((i + 1) + ". " + m.text));
    if (m.mark) {
      const sp = document.createElement("span");
      sp.className = "mark";
      sp.textContent = mark;
      b.appendChild(sp);
    }
    let title = m.colour + " " + m.text;
    if (m.loss !== null && m.loss !== undefined) title += ": loses " + m.loss.toFixed(1) + " discs" + (m.best ? ", best " + m.best : "");
    b.title = title;
    b.className = (i + 1 === s.ply ? "current " : "") + (i + 1 > s.ply ? "future " : "") + (m.colour === "white" ? "white-move" : "");
  });
  // The current move stays in sight in a long game.
  const current = items[s.ply - 1];
  if (current && (!shownPly || shownPly.ply !== s.ply || shownPly.length !== s.moves.length)) {
    current.scrollIntoView({ block: "nearest" });
  }
  shownPly = { ply: s.ply, length: s.moves.length };
}

// ---------------------------------------------------------------- settings and files

function fillForm(s) {
  const level = $("level");
  if (!level.options.length) {
    for (const l of s.levels) {
      const o = document.createElement("option");
      o.value = l.level;
      o.textContent = l.level + " " + l.name;
      o.title = l.note;
      level.appendChild(o);
    }
  }
  level.value = s.settings.level;
  $("black-side").value = s.settings.black;
  $("white-side").value = s.settings.white;
  const t = s.settings.time;
  $("time-kind").value = t.kind;
  if (t.kind === "per_move") $("move-seconds").value = t.ms / 1000;
  else {
    $("clock-minutes").value = t.base_ms / 60000;
    $("clock-inc").value = t.inc_ms / 1000;
  }
  timeKindChanged();
  formDrawn = JSON.stringify(s.settings);
  formEdited = false;
}

function timeKindChanged() {
  const clock = $("time-kind").value === "clock";
  $("move-seconds-label").hidden = clock;
  $("clock-minutes-label").hidden = !clock;
  $("clock-inc-label").hidden = !clock;
}

function formSettings() {
  const clock = $("time-kind").value === "clock";
  const time = clock
    ? { kind: "clock", base_ms: Math.round(Number($("clock-minutes").value) * 60000), inc_ms: Math.round(Number($("clock-inc").value) * 1000) }
    : { kind: "per_move", ms: Math.round(Number($("move-seconds").value) * 1000) };
  return { black: $("black-side").value, white: $("white-side").value, level: Number($("level").value), time };
}

async function save() {
  const r = await api({ type: "save" });
  if (!r || r.ggf === undefined) return;
  const blob = new Blob([r.ggf + "\n"], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "wedge-game.ggf";
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}

async function upload(e) {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  if (file.size > 200000) {
    say("That file is too large for one game (" + file.size + " bytes).", true);
    return;
  }
  const text = await file.text();
  await api({ type: "load", text });
}

function startEditing() {
  editing = state ? state.board : "-".repeat(64);
  $("edit-side").value = state && state.side === "white" ? "O" : "X";
  $("editor").hidden = false;
  drawBoard();
}

function stopEditing() {
  editing = null;
  $("editor").hidden = true;
  drawBoard();
}

async function startFromEdit() {
  const position = editing + " " + $("edit-side").value;
  formEdited = false;
  const r = await api({ type: "new", settings: formSettings(), position });
  if (r) stopEditing();
}

// ---------------------------------------------------------------- wiring

function wire() {
  $("undo").addEventListener("click", () => api({ type: "undo" }));
  $("redo").addEventListener("click", () => api({ type: "redo" }));
  $("move-now").addEventListener("click", () => api({ type: "stop" }));
  $("pause").addEventListener("click", () => api({ type: "pause", paused: !(state && state.paused) }));
  $("swap").addEventListener("click", () => api({ type: "swap" }));
  $("hints").addEventListener("click", () => api({ type: "hints", on: !(state && state.hints_on) }));
  $("analyze").addEventListener("click", () => api({ type: "analyze" }));
  $("stop-analysis").addEventListener("click", () => api({ type: "stop_analysis" }));
  $("time-kind").addEventListener("change", timeKindChanged);
  $("game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    formEdited = false;
    api({ type: "new", settings: formSettings() });
  });
  $("game-form").addEventListener("input", () => { formEdited = true; });
  $("apply").addEventListener("click", () => {
    formEdited = false;
    api({ type: "settings", settings: formSettings() });
  });
  $("save").addEventListener("click", save);
  $("upload").addEventListener("change", upload);
  $("load").addEventListener("click", async () => {
    const r = await api({ type: "load", text: $("paste").value });
    if (r) $("paste").value = "";
  });
  $("edit").addEventListener("click", startEditing);
  $("edit-cancel").addEventListener("click", stopEditing);
  $("edit-clear").addEventListener("click", () => {
    editing = "-".repeat(64);
    drawBoard();
  });
  $("edit-start").addEventListener("click", startFromEdit);
  $("take-over").addEventListener("click", () => claim(true).then(poll));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = { u: "undo", r: "redo", m: "stop" };
    if (keys[e.key]) api({ type: keys[e.key] });
    else if (e.key === "h") api({ type: "hints", on: !(state && state.hints_on) });
  });
  // A closed tab lets the engine go at once (a tab that vanishes without this times out).
  window.addEventListener("pagehide", () => {
    if (token) navigator.sendBeacon("/api/leave", token);
  });
}

async function main() {
  buildBoard();
  wire();
  try {
    if (await claim(false)) await poll();
  } catch (e) {
    say("Cannot reach the engine.", true);
  }
  setInterval(poll, POLL_MS);
}

main();
