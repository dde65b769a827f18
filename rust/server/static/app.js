// The page of `gammon serve`. It holds no rules: the server replays the game record, says what
// may be done and lists the legal plays with their moves; this script only shows them and maps
// clicks onto those lists. Every request goes to this server, as JSON.
"use strict";

// ----- talking to the server -----

// A token given in the address as #token=... (for a server started with --token): kept in
// memory, sent as a bearer header, and removed from the address bar so it is not bookmarked.
const TOKEN = (() => {
  const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, "", location.pathname + location.search);
  return decodeURIComponent(match[1]);
})();

function headers(json) {
  const h = {};
  if (json) h["Content-Type"] = "application/json";
  if (TOKEN) h["Authorization"] = "Bearer " + TOKEN;
  return h;
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function refusal(response) {
  let message = response.status + " " + response.statusText;
  try {
    message = (await response.json()).message || message;
  } catch (_) { /* not JSON: keep the status */ }
  return new ApiError(response.status, message);
}

async function post(path, body, signal) {
  const response = await fetch(path, {
    method: "POST", headers: headers(true), body: JSON.stringify(body), signal,
  });
  if (!response.ok) throw await refusal(response);
  return response.json();
}

function showError(error) {
  const box = document.getElementById("error");
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.textContent = error.message || String(error);
  box.hidden = false;
}

// Runs an action, showing its error; buttons stay usable afterwards.
async function guarded(action) {
  showError(null);
  try {
    await action();
  } catch (error) {
    if (error.name !== "AbortError") showError(error);
  }
}

function element(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function fixed(x, digits = 3) {
  return (x >= 0 ? "+" : "") + x.toFixed(digits);
}

// ----- boards -----

// Whether the server draws boards (GET /v1/board.svg); null until first asked.
let drawsBoards = null;

// The board picture for `position` (any notation the server reads) and `dice`, inlined so that
// its points take clicks; or, when the server draws no pictures, the position as text.
async function showBoard(target, position, dice, fallbackBoard, play) {
  if (drawsBoards !== false) {
    const query = new URLSearchParams({ position });
    if (dice) query.set("dice", dice.join(""));
    if (play) query.set("play", play);
    const response = await fetch("/v1/board.svg?" + query, { headers: headers(false) });
    if (response.ok) {
      drawsBoards = true;
      const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
      target.replaceChildren(document.importNode(svg, true));
      return true;
    }
    if (response.status !== 404) throw await refusal(response);
    drawsBoards = false;
  }
  target.replaceChildren(textBoard(position, dice, fallbackBoard));
  return false;
}

// The board as a table of checker counts (from the server's own list), with the position's ID;
// only the ID when no list came with it.
function textBoard(position, dice, board) {
  const box = element("div");
  box.append(element("p", position + (dice ? "  dice " + dice.join("-") : ""), "id"));
  if (!board) return box;
  const table = element("table");
  const rows = [[13, 24], [12, 1]];
  for (const [from, to] of rows) {
    const head = element("tr");
    const counts = element("tr");
    const step = from < to ? 1 : -1;
    for (let p = from; p !== to + step; p += step) {
      head.append(element("th", String(p)));
      const n = board[p];
      counts.append(element("td", n ? String(Math.abs(n)) : "", n > 0 ? "ours" : "theirs"));
    }
    table.append(head, counts);
  }
  box.append(table);
  box.append(element("p", `bar: you ${board[25]}, bot ${-board[0]}`));
  return box;
}

// ----- picking a play by clicks -----

// What was clicked towards one of a list of legal plays: moves (each a chain of the listed
// single-die steps of one checker), a source awaiting its destination, or a play picked from the
// list. It only matches clicks against the server's list; it knows no rules.
class Picker {
  constructor() {
    this.reset([]);
  }

  reset(plays) {
    this.plays = plays;
    this.chains = [];
    this.source = null;
    this.chosen = null;
  }

  steps() {
    return this.chains.flat();
  }

  // The plays that still agree with what was clicked.
  candidates() {
    const steps = this.steps();
    return this.plays.filter((p) => remainingSteps(p, steps) !== null);
  }

  // The play picked, or the one whose moves are exactly those clicked.
  done() {
    if (this.chosen) return this.chosen;
    const steps = this.steps();
    return this.candidates().find((p) => remainingSteps(p, steps).length === 0) || null;
  }

  pick(play) {
    this.chains = [];
    this.source = null;
    this.chosen = play;
  }

  // A click on `point`: the source of a move, or the destination of the move from the source.
  // Returns an error message when no listed play fits.
  click(point) {
    this.chosen = null;
    const steps = this.steps();
    const open = this.candidates().map((p) => remainingSteps(p, steps));
    if (this.source !== null && this.source !== point) {
      for (const left of open) {
        const found = chain(left, this.source, point);
        if (found) {
          this.chains.push(found);
          this.source = null;
          return null;
        }
      }
    }
    if (this.source === point) {
      this.source = null;
    } else if (open.some((left) => left.some(([f]) => f === point))) {
      this.source = point;
    } else {
      const had = this.source !== null;
      this.source = null;
      return had ? "no legal play moves a checker there" : "no legal play moves a checker from there";
    }
    return null;
  }

  undo() {
    if (this.chosen) this.chosen = null;
    else if (this.source !== null) this.source = null;
    else this.chains.pop();
  }

  busy() {
    return this.chains.length > 0 || this.source !== null || this.chosen !== null;
  }

  text(name) {
    const moves = this.chains.map((c) => name(c[0][0]) + "/" + name(c[c.length - 1][1])).join(" ");
    return (moves || "none") + (this.source !== null ? ` (from ${name(this.source)})` : "");
  }
}

// The steps of `play` left once `steps` are taken out, or null when `steps` are not all in it.
function remainingSteps(play, steps) {
  const left = play.moves.map((m) => m.slice());
  for (const [from, to] of steps) {
    const k = left.findIndex(([f, t]) => f === from && t === to);
    if (k < 0) return null;
    left.splice(k, 1);
  }
  return left;
}

// Steps of `left` leading one checker from `from` to `to`, by a path of the listed moves.
function chain(left, from, to) {
  for (let k = 0; k < left.length; k++) {
    const [f, t] = left[k];
    if (f !== from) continue;
    if (t === to) return [left[k]];
    const rest = left.slice(0, k).concat(left.slice(k + 1));
    const more = chain(rest, t, to);
    if (more) return [left[k], ...more];
  }
  return null;
}

// ----- play against the bot -----

const game = {
  request: null,  // {length, seed, ply}: what the game was started with
  state: null,    // the server's last answer
  picker: new Picker(),  // the moves clicked towards one of the legal plays
};

function randomSeed() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  // Below 2^53, so that JSON carries it exactly.
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}

async function send(actions) {
  const body = { ...game.request, history: actions };
  const state = await post("/v1/game", body);
  game.state = state;
  game.picker.reset(state.plays);
  await renderGame();
}

async function newGame(event) {
  event.preventDefault();
  const kind = document.getElementById("game-kind").value;
  const seedText = document.getElementById("game-seed").value;
  const plyText = document.getElementById("game-ply").value;
  game.request = {
    length: kind === "match" ? Number(document.getElementById("match-length").value) : 0,
    seed: seedText === "" ? randomSeed() : Number(seedText),
  };
  if (plyText !== "") game.request.ply = Number(plyText);
  document.getElementById("play-log").replaceChildren();
  document.getElementById("play-hint").replaceChildren();
  await send([]);
}

function act(action) {
  return send([...game.state.history, action]);
}

function log(line) {
  const list = document.getElementById("play-log");
  list.append(element("li", line));
  list.scrollTop = list.scrollHeight;
}

function describeBotAction(action) {
  if (action === "double") return "gammon doubles";
  if (action === "take") return "gammon takes";
  if (action === "drop") return "gammon passes";
  if (action.startsWith("roll ")) return "gammon rolls " + action.slice(5, 6) + "-" + action.slice(6);
  if (action.startsWith("play ")) return "gammon plays " + action.slice(5);
  return "gammon: " + action;
}

function clickPoint(point) {
  const state = game.state;
  if (!state || !state.allowed.includes("play")) return;
  const error = game.picker.click(point);
  if (error) showError(new Error(error));
  updateEntered();
}

function pointName(p) {
  return p === 25 ? "bar" : p === 0 ? "off" : String(p);
}

function updateEntered() {
  const picker = game.picker;
  const done = picker.done();
  document.getElementById("play-entered").textContent =
    game.state && game.state.allowed.includes("play")
      ? (done ? "Play: " + (done.play || "no move") + " - confirm or undo" : "Moves: " + picker.text(pointName))
      : "";
  document.getElementById("act-confirm").hidden = !done;
  document.getElementById("act-undo").hidden = !picker.busy();
  for (const item of document.querySelectorAll("#play-plays li")) {
    item.classList.toggle("chosen", !!done && item.dataset.play === done.play);
  }
  for (const g of document.querySelectorAll("#play-board [data-point]")) {
    g.classList.toggle("selected", Number(g.getAttribute("data-point")) === picker.source);
  }
  if (done) showError(null);
  // The picture shows the picked play's arrows, or none once it is undone.
  const board = document.getElementById("play-board");
  const shown = board.dataset.shows || "";
  const wanted = done ? done.play : "";
  if (drawsBoards && shown !== wanted) guarded(() => drawGameBoard(wanted || null));
}

function undo() {
  game.picker.undo();
  updateEntered();
}

async function confirmPlay() {
  const play = game.picker.done();
  if (play) await act(("play " + play.play).trim());
}

// Click handlers on the picture's points, the client's bar and tray (the markup contract of the
// board pictures: only those carry `data-point`; the opponent's bar and tray take no clicks).
function attachBoardClicks(target) {
  for (const g of target.querySelectorAll(".point[data-point], .bar[data-point], .tray[data-point]")) {
    g.addEventListener("click", () => clickPoint(Number(g.getAttribute("data-point"))));
  }
}

// The game's board from the client's side: its full ID (cube, score, dice) while it is the
// client's turn, the board alone otherwise; with the arrows of `play` when one is picked.
async function drawGameBoard(play) {
  const s = game.state;
  const board = document.getElementById("play-board");
  const ours = s.turn === "you";
  const drawn = await showBoard(board, ours ? s.gnubg_id : s.position, null, s.board, play);
  if (drawn) attachBoardClicks(board);
  board.dataset.shows = play || "";
}

async function renderGame() {
  const s = game.state;
  await drawGameBoard(null);
  for (const a of s.bot_actions) log(describeBotAction(a));
  const opening = s.opening && s.history.length && s.history.length - s.bot_actions.length === 1;
  if (opening) log(`opening roll: you ${s.opening[0]}, gammon ${s.opening[1]}`);
  const parts = [];
  parts.push(s.length ? `Match to ${s.length}: you ${s.score[0]}, gammon ${s.score[1]}` +
    (s.crawford ? " (Crawford game)" : "") : `Money game: you ${s.score[0]}, gammon ${s.score[1]}`);
  parts.push(`cube ${s.cube_value}` + (s.cube_owner === "centred" ? "" : ` (${s.cube_owner === "you" ? "yours" : "gammon's"})`));
  parts.push(`pips ${s.pips[0]} - ${s.pips[1]}`);
  if (s.dice && s.to_act === "you") parts.push(`you rolled ${s.dice[0]}-${s.dice[1]}`);
  if (s.result) {
    const who = s.result.winner === "you" ? "You win" : "gammon wins";
    const why = s.result.reason === "dropped" ? " (double passed)" : "";
    parts.push(`${who} ${s.result.points} point${s.result.points === 1 ? "" : "s"}${why}`);
  }
  if (s.match_winner) parts.push(s.match_winner === "you" ? "You win the match" : "gammon wins the match");
  else if (s.allowed.includes("take")) parts.push("gammon doubles: take or pass?");
  else if (s.allowed.includes("roll")) parts.push("your roll");
  else if (s.allowed.includes("play")) parts.push("your play");
  const status = document.getElementById("play-status");
  status.textContent = parts.join(" · ");
  status.dataset.over = s.result ? (s.length === 0 || s.match_winner ? "all" : "game") : "";
  for (const name of ["roll", "double", "take", "drop", "next"]) {
    document.getElementById("act-" + name).hidden = !s.allowed.includes(name);
  }
  document.getElementById("act-hint").hidden = !s.allowed.some((a) => ["roll", "play", "take"].includes(a));
  const list = document.getElementById("play-plays");
  list.replaceChildren();
  for (const p of s.plays) {
    const item = element("li");
    item.dataset.play = p.play;
    const button = element("button", p.play || "no move");
    button.type = "button";
    button.addEventListener("click", () => {
      game.picker.pick(p);
      updateEntered();
    });
    item.append(button);
    list.append(item);
  }
  document.getElementById("play-mat").textContent = s.mat;
  const link = document.getElementById("play-download");
  link.href = "data:text/plain;charset=utf-8," + encodeURIComponent(s.mat);
  updateEntered();
  rendered();
}

// Counts the server's answers drawn, so that tests can wait for the next one.
function rendered() {
  document.body.dataset.rendered = String(Number(document.body.dataset.rendered || 0) + 1);
}

// The bot's view of the decision at hand: the ranked plays of the roll, or the cube decision.
async function hint() {
  const s = game.state;
  const target = document.getElementById("play-hint");
  const body = { position: s.gnubg_id };
  if (game.request.ply !== undefined) body.ply = game.request.ply;
  if (s.allowed.includes("play")) {
    const answer = await post("/v1/plays", body);
    target.replaceChildren(rankingTable(answer.plays.slice(0, 5)));
  } else {
    const answer = await post("/v1/cube", body);
    target.replaceChildren(element("p", answer.label + cubeLine(answer)));
  }
}

function cubeLine(answer) {
  return ` (no double ${fixed(answer.no_double)}, double/take ${fixed(answer.double_take)}, ` +
    `double/pass ${fixed(answer.double_pass)})`;
}

function rankingTable(plays) {
  const table = element("table", undefined, "ranking");
  const head = element("tr");
  for (const h of ["#", "play", "equity", "diff", "win"]) head.append(element("th", h));
  table.append(head);
  const best = plays.length ? plays[0].equity : 0;
  plays.forEach((p, k) => {
    const row = element("tr");
    row.append(element("td", String(k + 1)), element("td", p.play || "no move"),
      element("td", fixed(p.equity)), element("td", k ? fixed(p.equity - best) : ""),
      element("td", (100 * p.probabilities.win).toFixed(1) + "%"));
    table.append(row);
  });
  return table;
}

// ----- analysis -----

const analysis = { rollout: null };

function analysedPosition() {
  return document.getElementById("analyse-position").value.trim();
}

function analysePly(body) {
  const ply = document.getElementById("analyse-ply").value;
  if (ply !== "") body.ply = Number(ply);
  return body;
}

function analysedDice() {
  const text = document.getElementById("analyse-dice").value.replace(/[^1-6]/g, "");
  return text.length === 2 ? [Number(text[0]), Number(text[1])] : null;
}

async function analyseShow(event) {
  if (event) event.preventDefault();
  await showBoard(document.getElementById("analyse-board"), analysedPosition(), analysedDice(), null);
}

async function analysePlays() {
  const body = analysePly({ position: analysedPosition() });
  const dice = analysedDice();
  if (dice) body.dice = dice;
  const answer = await post("/v1/plays", body);
  const target = document.getElementById("analyse-result");
  target.replaceChildren(element("h2", `Plays of ${answer.dice ? answer.dice.join("-") : ""}`),
    rankingTable(answer.plays));
  await analyseShow();
}

async function analyseCube() {
  const answer = await post("/v1/cube", analysePly({ position: analysedPosition() }));
  const target = document.getElementById("analyse-result");
  const p = answer.probabilities;
  target.replaceChildren(element("h2", "Cube"), element("p", answer.label + cubeLine(answer), "cube-label"),
    element("p", `win ${(100 * p.win).toFixed(1)}%, gammon ${(100 * p.win_gammon).toFixed(1)}%, ` +
      `lose gammon ${(100 * p.lose_gammon).toFixed(1)}%`));
  await analyseShow();
}

// The rollout asked for by the form: cubeless, cubeful or of the cube decision, in the context
// the position's ID carries (the server reads it) or the one chosen; played at 0-ply or 1-ply,
// whole games or cut after some plies (then judged by the net), with or without the luck of the
// dice taken out. A match is given to the server as the points each side still needs: the length
// less its score.
function rolloutRequest() {
  const value = (id) => document.getElementById(id).value;
  const checked = (id) => document.getElementById(id).checked;
  const body = {
    position: analysedPosition(),
    trials: Number(value("rollout-trials")),
    seed: Number(value("rollout-seed")),
    ply: Number(value("rollout-ply")),
    variance_reduction: checked("rollout-variance-reduction"),
  };
  if (value("rollout-truncate") !== "") body.truncate = Number(value("rollout-truncate"));
  const kind = value("rollout-kind");
  if (kind === "cubeless") return body;
  body.cubeful = true;
  if (kind === "cube") body.kind = "cube";
  const stake = value("rollout-stake");
  if (stake === "position") return body;
  if (stake === "money") {
    body.money = { jacoby: checked("rollout-jacoby"), beavers: checked("rollout-beavers") };
  } else {
    const length = Number(value("rollout-length"));
    body.match = {
      away: [length - Number(value("rollout-score-us")), length - Number(value("rollout-score-them"))],
      crawford: checked("rollout-crawford"),
    };
  }
  body.cube = { value: Number(value("rollout-cube-value")), owner: value("rollout-cube-owner") };
  return body;
}

// Shows the context controls that apply to the chosen kind of rollout and stake.
function rolloutControls() {
  const kind = document.getElementById("rollout-kind").value;
  const stake = document.getElementById("rollout-stake").value;
  document.getElementById("rollout-context").hidden = kind === "cubeless";
  document.getElementById("rollout-money").hidden = stake !== "money";
  document.getElementById("rollout-match").hidden = stake !== "match";
  document.getElementById("rollout-cube").hidden = stake === "position";
}

function percent(x, digits = 2) {
  return (100 * x).toFixed(digits) + "%";
}

// The context a cubeful rollout was played in, as the server sent it back.
function contextLine(c) {
  const owner = c.owner === "centred" ? "centred" : c.owner === "us" ? "owned by the player on roll" : "owned by the opponent";
  const stake = c.away
    ? `match: ${c.away[0]}-away, ${c.away[1]}-away` + (c.crawford ? ", Crawford game" : c.post_crawford ? ", post-Crawford" : "")
    : "money" + (c.jacoby ? ", Jacoby" : "") + (c.beavers ? ", beavers" : "");
  return `${stake}; cube ${c.value} ${owner}`;
}

// The figures of a rollout, running (a progress event) or final (the result): one row per
// figure the server sent, each marked with the name of its field.
function rolloutFigures(data) {
  const table = document.getElementById("rollout-figures");
  table.replaceChildren();
  const row = (field, name, value, error) => {
    const tr = element("tr");
    tr.dataset.field = field;
    tr.append(element("th", name), element("td", value, "value"), element("td", error === undefined ? "" : "± " + error, "error"));
    table.append(tr);
  };
  if (data.context) row("context", "played in", contextLine(data.context));
  row("equity", "cubeless equity", fixed(data.equity), data.std_error.toFixed(3));
  const p = data.probabilities;
  row("probabilities", "win, gammon, backgammon",
    `${percent(p.win, 1)}, ${percent(p.win_gammon, 1)}, ${percent(p.win_backgammon, 1)}`);
  row("losses", "lose gammon, backgammon", `${percent(p.lose_gammon, 1)}, ${percent(p.lose_backgammon, 1)}`);
  const c = data.cube;
  if (c) {
    row("no_double", "no double", fixed(c.no_double), c.no_double_std_error.toFixed(3));
    row("double_take", "double, take", fixed(c.double_take), c.double_take_std_error.toFixed(3));
    row("double_pass", "double, pass", fixed(c.double_pass));
    row("difference", "double, take - no double", fixed(c.double_take - c.no_double), c.difference_std_error.toFixed(3));
    const yes = (b) => (b ? "yes" : "no");
    row("verdict", "double, take, beaver", `${yes(c.double)}, ${yes(c.take)}, ${yes(c.beaver)}`);
    row("label", "decision", c.label);
  } else if (data.cubeful_equity != null) {
    row("cubeful_equity", "cubeful equity", fixed(data.cubeful_equity), data.cubeful_std_error.toFixed(3));
  }
  if (data.mwc != null) {
    row("mwc", c ? "match winning chance, no double" : "match winning chance", percent(data.mwc),
      percent(data.mwc_std_error));
  }
  table.hidden = false;
}

// Reads the server-sent events of a streamed rollout as they come.
async function rollout(event) {
  event.preventDefault();
  const controller = new AbortController();
  analysis.rollout = controller;
  const start = document.getElementById("rollout-start");
  const cancel = document.getElementById("rollout-cancel");
  const bar = document.getElementById("rollout-progress");
  const status = document.getElementById("rollout-status");
  start.disabled = true;
  cancel.disabled = false;
  bar.value = 0;
  status.textContent = "starting";
  status.dataset.state = "running";
  const body = rolloutRequest();
  document.getElementById("rollout-figures").hidden = true;
  try {
    const response = await startRollout(body, controller.signal, status);
    if (!response.ok) throw await refusal(response);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block);
        const data = /^data: (.*)$/m.exec(block);
        if (name && data) rolloutEvent(name[1], JSON.parse(data[1]));
      }
    }
  } catch (error) {
    if (error.name === "AbortError") {
      status.textContent = `cancelled after ${bar.dataset.trials || 0} trials`;
      status.dataset.state = "cancelled";
    } else {
      status.dataset.state = "failed";
      throw error;
    }
  } finally {
    analysis.rollout = null;
    start.disabled = false;
    cancel.disabled = true;
  }
}

// Starts a streamed rollout. While the server runs as many rollouts as it runs at once (503),
// for instance the one just cancelled, which stops at its next batch, it tries again for a
// while: every second, for at most half a minute.
async function startRollout(body, signal, status) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch("/v1/rollout/stream", {
      method: "POST", headers: headers(true), body: JSON.stringify(body), signal,
    });
    if (response.status !== 503 || attempt >= 30) return response;
    status.textContent = "waiting for the server to free a rollout place";
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 1000);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new DOMException("cancelled", "AbortError"));
      }, { once: true });
    });
  }
}

function rolloutEvent(name, data) {
  const bar = document.getElementById("rollout-progress");
  const status = document.getElementById("rollout-status");
  if (name === "progress") {
    bar.value = data.trials / data.of;
    bar.dataset.trials = data.trials;
    status.textContent = `${data.trials} of ${data.of} trials: equity ${fixed(data.equity)} ` +
      `± ${data.std_error.toFixed(3)}, win ${(100 * data.probabilities.win).toFixed(1)}% ` +
      (data.cube ? `- ${data.cube.label} so far ` : "") +
      `(${data.seconds.toFixed(1)} s)`;
    rolloutFigures(data);
  } else if (name === "result") {
    bar.value = data.cancelled ? bar.value : 1;
    bar.dataset.trials = data.trials;
    status.textContent = `${data.trials} trials: equity ${fixed(data.equity)} ± ${data.std_error.toFixed(3)}, ` +
      `win ${(100 * data.probabilities.win).toFixed(1)}%, gammon ${(100 * data.probabilities.win_gammon).toFixed(1)}%` +
      (data.cancelled ? " (stopped at the server's time limit)" : "");
    rolloutFigures(data);
    status.dataset.state = "done";
  } else if (name === "error") {
    status.dataset.state = "failed";
    showError(new Error(data.message));
  }
}

// ----- a match analysed -----

const review = { analysis: null, index: -1 };

async function analyseMatch(event) {
  event.preventDefault();
  const file = document.getElementById("match-file").files[0];
  const text = file ? await file.text() : document.getElementById("match-text").value;
  if (!text.trim()) throw new Error("choose a .mat file or paste one");
  const ply = document.getElementById("match-ply").value;
  const status = document.getElementById("match-status");
  status.textContent = "analysing...";
  status.dataset.state = "running";
  const h = headers(false);
  h["Content-Type"] = "text/plain; charset=utf-8";
  const response = await fetch("/v1/analyse" + (ply === "" ? "" : "?ply=" + ply), {
    method: "POST", headers: h, body: text,
  });
  if (!response.ok) {
    status.textContent = "";
    status.dataset.state = "failed";
    throw await refusal(response);
  }
  review.analysis = await response.json();
  review.index = -1;
  const a = review.analysis;
  const marked = a.decisions.filter((d) => d.mark).length;
  status.textContent = `${a.length ? a.length + "-point match" : "money session"}, ${a.games} game(s), ` +
    `${a.decisions.length} decisions at ${a.ply}-ply, ${marked} marked`;
  status.dataset.state = "done";
  const table = element("table", undefined, "ranking");
  const head = element("tr");
  for (const h2 of ["player", "decisions", "error rate", "PR", "rating", "luck"]) head.append(element("th", h2));
  table.append(head);
  for (const p of a.players) {
    const row = element("tr");
    row.append(element("td", p.name), element("td", String(p.decisions)),
      element("td", tenths(p.error_rate)), element("td", tenths(p.pr)), element("td", String(p.rating ?? "-")),
      element("td", p.luck == null ? "-" : fixed(p.luck)));
    table.append(row);
  }
  document.getElementById("match-players").replaceChildren(table);
  const list = document.getElementById("match-decisions");
  list.replaceChildren();
  a.decisions.forEach((d, k) => {
    const item = element("li");
    if (d.mark) item.classList.add("mark-" + d.mark.replace(" ", "-"));
    const button = element("button", decisionLine(d));
    button.type = "button";
    button.addEventListener("click", () => guarded(() => showDecision(k)));
    item.append(button);
    list.append(item);
  });
  for (const id of ["match-previous", "match-next", "match-next-error"]) {
    document.getElementById(id).disabled = a.decisions.length === 0;
  }
  if (a.decisions.length) await showDecision(0);
}

function tenths(x) {
  return x == null ? "-" : x.toFixed(1);
}

function decisionLine(d) {
  const who = review.analysis.players[d.player] ? review.analysis.players[d.player].name : "player " + d.player;
  const dice = d.dice ? ` ${d.dice[0]}${d.dice[1]}` : "";
  const lost = d.equity_lost > 0 ? ` (${fixed(-d.equity_lost)})` : "";
  const mark = d.mark ? ` ${d.mark}` : "";
  return `game ${d.game}: ${who}${dice} ${d.kind} ${d.played || ""}${lost}${mark}`;
}

async function showDecision(k) {
  const a = review.analysis;
  if (!a || k < 0 || k >= a.decisions.length) return;
  review.index = k;
  const d = a.decisions[k];
  for (const [i, item] of document.querySelectorAll("#match-decisions li").entries()) {
    item.classList.toggle("current", i === k);
  }
  const text = document.getElementById("match-decision");
  let line = decisionLine(d);
  if (d.best && d.best !== d.played) line += ` - best: ${d.best}`;
  if (d.cube_label) line += ` - ${d.cube_label}`;
  text.textContent = line;
  text.dataset.mark = d.mark || "";
  const id = d.position_id + (d.match_id ? ":" + d.match_id : "");
  const play = d.kind === "checker" && d.played ? d.played : null;
  const board = document.getElementById("match-board");
  try {
    await showBoard(board, id, d.dice, null, play);
  } catch (error) {
    // A play the picture cannot draw as arrows still leaves the position to show.
    if (!(error instanceof ApiError) || error.status !== 400 || !play) throw error;
    await showBoard(board, id, d.dice, null, null);
  }
}

async function nextError() {
  const a = review.analysis;
  if (!a) return;
  for (let k = review.index + 1; k < a.decisions.length; k++) {
    if (a.decisions[k].mark) return showDecision(k);
  }
  showError(new Error("no marked decision after this one"));
}

// ----- Battlegammon -----

const bg = { request: null, state: null, picker: new Picker() };

async function bgSend(actions) {
  const state = await post("/v1/battlegammon/game", { ...bg.request, history: actions });
  bg.state = state;
  bg.picker.reset(state.plays);
  await bgRender();
}

async function bgNew(event) {
  event.preventDefault();
  const seedText = document.getElementById("bg-seed").value;
  bg.request = { seed: seedText === "" ? randomSeed() : Number(seedText) };
  document.getElementById("bg-log").replaceChildren();
  await bgSend([]);
}

// The track as the server draws it, its fields taking clicks; the ID alone without pictures.
async function bgBoard() {
  const s = bg.state;
  const target = document.getElementById("bg-board");
  const done = bg.picker.done();
  const query = new URLSearchParams({ position: done ? done.next_position : s.position });
  if (s.dice && !done) query.set("dice", s.dice.join(""));
  const response = await fetch("/v1/battlegammon/board.svg?" + query, { headers: headers(false) });
  if (!response.ok) {
    if (response.status !== 404) throw await refusal(response);
    target.replaceChildren(element("p", query.get("position"), "id"));
    return;
  }
  const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
  target.replaceChildren(document.importNode(svg, true));
  for (const g of target.querySelectorAll(".field[data-field]")) {
    g.addEventListener("click", () => {
      if (!bg.state.allowed.includes("play")) return;
      const error = bg.picker.click(Number(g.getAttribute("data-field")));
      if (error) showError(new Error(error));
      guarded(bgEntered);
    });
  }
  target.dataset.shows = done ? done.play : "";
}

async function bgRender() {
  const s = bg.state;
  for (const a of s.bot_actions) {
    const line = a.startsWith("roll ") ? "gammon rolls " + a.slice(5, 6) + "-" + a.slice(6) : "gammon " + a.replace("play ", "plays ");
    const list = document.getElementById("bg-log");
    list.append(element("li", line));
  }
  const parts = [`You play ${s.you}`, `turn ${s.turns + 1}`];
  if (s.dice && s.turn === "you") parts.push(`you rolled ${s.dice[0]}-${s.dice[1]}`);
  if (s.winner) parts.push(s.winner === "you" ? `You win (${s.end_reason})` : `gammon wins (${s.end_reason})`);
  else if (s.draw) parts.push(`Draw (${s.end_reason})`);
  else if (s.allowed.includes("roll")) parts.push("your roll");
  else if (s.allowed.includes("play")) parts.push("your play");
  const status = document.getElementById("bg-status");
  status.textContent = parts.join(" · ");
  status.dataset.over = s.allowed.length ? "" : "all";
  document.getElementById("bg-roll").hidden = !s.allowed.includes("roll");
  const list = document.getElementById("bg-plays");
  list.replaceChildren();
  for (const p of s.plays) {
    const item = element("li");
    item.dataset.play = p.play;
    const button = element("button", p.play);
    button.type = "button";
    button.addEventListener("click", () => {
      bg.picker.pick(p);
      guarded(bgEntered);
    });
    item.append(button);
    list.append(item);
  }
  await bgBoard();
  await bgEntered();
  rendered();
}

async function bgEntered() {
  const picker = bg.picker;
  const done = picker.done();
  const playing = bg.state.allowed.includes("play");
  document.getElementById("bg-entered").textContent = playing
    ? (done ? "Play: " + done.play + " - confirm or undo" : "Moves: " + picker.text(String)) : "";
  document.getElementById("bg-confirm").hidden = !done;
  document.getElementById("bg-undo").hidden = !picker.busy();
  for (const item of document.querySelectorAll("#bg-plays li")) {
    item.classList.toggle("chosen", !!done && item.dataset.play === done.play);
  }
  const board = document.getElementById("bg-board");
  if ((board.dataset.shows || "") !== (done ? done.play : "") || !board.firstChild) await bgBoard();
  for (const g of board.querySelectorAll(".field[data-field]")) {
    g.classList.toggle("selected", Number(g.getAttribute("data-field")) === picker.source);
  }
}

// ----- wiring -----

function selectTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const on = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(on));
    document.getElementById(tab.dataset.tab).hidden = !on;
  }
}

function wire() {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => selectTab(tab.dataset.tab));
  }
  const on = (id, type, handler) =>
    document.getElementById(id).addEventListener(type, (e) => guarded(() => handler(e)));
  on("new-game", "submit", newGame);
  // A money game has no length: the box shows only while "match" is chosen.
  on("game-kind", "change", (e) => {
    document.getElementById("match-length-label").hidden = e.target.value !== "match";
  });
  for (const name of ["roll", "double", "take", "drop", "next"]) on("act-" + name, "click", () => act(name));
  on("act-undo", "click", async () => undo());
  on("act-confirm", "click", confirmPlay);
  on("act-hint", "click", hint);
  on("analyse-form", "submit", analyseShow);
  on("analyse-plays", "click", analysePlays);
  on("analyse-cube", "click", analyseCube);
  on("rollout-form", "submit", rollout);
  on("rollout-kind", "change", async () => rolloutControls());
  on("rollout-stake", "change", async () => rolloutControls());
  on("match-form", "submit", analyseMatch);
  on("match-previous", "click", () => showDecision(review.index - 1));
  on("match-next", "click", () => showDecision(review.index + 1));
  on("match-next-error", "click", nextError);
  on("bg-new", "submit", bgNew);
  on("bg-roll", "click", () => bgSend([...bg.state.history, "roll"]));
  on("bg-undo", "click", async () => {
    bg.picker.undo();
    await bgEntered();
  });
  on("bg-confirm", "click", () => bgSend([...bg.state.history, "play " + bg.picker.done().play]));
  document.getElementById("rollout-cancel").addEventListener("click", () => {
    if (analysis.rollout) analysis.rollout.abort();
  });
  document.body.dataset.ready = "true";
}

wire();
