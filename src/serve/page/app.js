// The page of `umpire serve`: four screens (Table, Odds, Editions, Ruleset) over the
// JSON API of docs/serve.md. Plain JavaScript, no framework, no build step. Every text
// the server sends is put in the page as text (textContent), never as markup; the only
// markup taken is the SVG of the charts, which our server draws with its text escaped,
// parsed as SVG (DOMParser) and imported. Values are shown as the API gives them, in
// the rulebook's words: nothing is reformatted here.
'use strict';

const $ = (id) => document.getElementById(id);

/** The umpire's token, from the address (`?token=…`); kept there, so a reload works. */
const TOKEN = new URLSearchParams(location.search).get('token') || '';

const WATCHING_WHY =
  'This page watches the game: only the umpire\'s page (the address with ?token= that ' +
  '`umpire serve` printed) can adjudicate, apply, undo or save.';

const state = {
  table: null, // the last GET /api/table
  unit: null, // the key of the unit picked
  mine: new Map(), // ruling id → what this page knows of it (the faces it gave)
  loading: false,
  again: false,
  rules: null,
  rulesShown: false,
  editions: null,
  questionsKey: '',
  screen: null, // the screen shown
  sweep: null, // the last odds' sweep: { name, first } (its name and first value)
};

// ---------------------------------------------------------------- small helpers

/** An element with attributes and children (strings become text nodes). */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** A unit's key as people say it: `second_foot` → "second foot". */
const spoken = (name) => String(name).replace(/_/g, ' ');

/** A failed request: its status and the server's diagnostics. */
class ApiError extends Error {
  constructor(status, errors) {
    super(errors.map((e) => e.message).join('; ') || `the server answered ${status}`);
    this.status = status;
    this.errors = errors;
  }
}

/** Calls the API; `change` sends the token. Answers the JSON, or throws an ApiError. */
async function api(path, { body, change = false, method } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (change && TOKEN) headers['X-Umpire-Token'] = TOKEN;
  const init = { method: method || (body !== undefined || change ? 'POST' : 'GET'), headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  let answer;
  try {
    answer = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, [{ message: 'the server cannot be reached: is `umpire serve` still running?' }]);
  }
  let json = null;
  try {
    json = await answer.json();
  } catch (e) {
    json = null;
  }
  if (!answer.ok) {
    const errors = json && Array.isArray(json.error) ? json.error
      : [{ message: `the server answered ${answer.status}` }];
    throw new ApiError(answer.status, errors);
  }
  return json;
}

/** Diagnostics drawn into `box`: message, help, and the rendered text (caret under the span). */
function drawDiagnostics(box, errors, heading) {
  box.replaceChildren();
  if (heading) box.append(el('p', { class: 'alert-title' }, heading));
  for (const d of errors) {
    const where = (d.labels || []).filter((l) => l.file)
      .map((l) => `${l.file}:${l.line}:${l.column}`).join(', ');
    const item = el('div', { class: d.warning ? 'diag warning' : 'diag' },
      el('p', { class: 'diag-message' }, d.warning ? 'Warning: ' : '', d.message || ''),
      where ? el('p', { class: 'diag-where' }, where) : null,
      d.help ? el('p', { class: 'diag-help' }, 'Help: ', d.help) : null,
      d.rendered ? el('pre', { class: 'diag-rendered' }, d.rendered) : null);
    box.append(item);
  }
  box.hidden = errors.length === 0;
}

/**
 * Shows a failure in the page's alert region (role="alert"); `look` brings it into view
 * and moves the focus to it (after something the reader did).
 */
function showError(err, look = false) {
  const box = $('alert');
  const errors = err instanceof ApiError ? err.errors : [{ message: String(err && err.message || err) }];
  drawDiagnostics(box, errors);
  const close = el('button', { type: 'button', class: 'small' }, 'Dismiss');
  close.addEventListener('click', clearError);
  box.append(el('div', { class: 'buttons' }, close));
  if (look) box.focus();
}

function clearError() {
  const box = $('alert');
  box.hidden = true;
  box.replaceChildren();
}

/** Faces typed in a box ("6", "3 4", "3,4"): whole numbers, else a sentence why not. */
function parseFaces(text) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  for (const p of parts) {
    if (!/^-?\d+$/.test(p)) throw new Error(`"${p}" is not a face: give whole numbers, by spaces or commas`);
  }
  return parts.map(Number);
}

/**
 * Whether `button` may be pressed as the game stands. Kept in `data-off`, so that a
 * button busy with its own request takes this state when the request ends, not the one
 * it had before (the answer may have changed it).
 */
function enable(button, ok) {
  button.dataset.off = String(!ok);
  if (button.getAttribute('aria-busy') !== 'true') button.disabled = !ok;
}

/** Runs `fn` with `button` disabled meanwhile; a failure shows in the alert region. */
async function busy(button, fn) {
  if (button) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
  }
  try {
    await fn();
  } catch (e) {
    showError(e, true);
  } finally {
    if (button) {
      button.removeAttribute('aria-busy');
      button.disabled = button.dataset.off === 'true';
    }
  }
}

/** The SVG our server drew, parsed as SVG and put in `box` (never as HTML). */
function putSvg(box, svgText) {
  const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length) {
    box.replaceChildren(el('p', { class: 'hint' }, 'The chart could not be read.'));
    return;
  }
  for (const s of root.querySelectorAll('script, foreignObject')) s.remove();
  box.replaceChildren(document.importNode(root, true));
}

/**
 * Each `.scroll-hint` ("scroll it sideways →") shown only while the box before it is
 * wider than the screen lets it be (a chart or a table on a phone).
 */
function markScrolling() {
  for (const hint of document.querySelectorAll('.scroll-hint')) {
    const box = hint.previousElementSibling;
    hint.hidden = !box || box.scrollWidth <= box.clientWidth + 1;
  }
}

// ---------------------------------------------------------------- navigation

const SCREENS = ['table', 'odds', 'editions', 'rules'];

/**
 * Shows the screen the address names (`#odds`); the panels' ids are `screen-NAME`, so
 * that going to a screen does not scroll the page to it. Another hash (the skip link's
 * `#main`) leaves the screen as it is.
 */
function showScreen() {
  const want = location.hash.replace(/^#/, '');
  if (want && !SCREENS.includes(want)) return;
  const screen = want || 'table';
  // An alert belongs to the screen it came from: another screen starts without it.
  if (state.screen && state.screen !== screen) clearError();
  state.screen = screen;
  for (const s of SCREENS) {
    $(`screen-${s}`).hidden = s !== screen;
    const tab = $(`tab-${s}`);
    tab.setAttribute('aria-selected', String(s === screen));
    if (s === screen) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  }
  if (screen === 'editions' && !state.editions) loadEditions();
  if (screen === 'rules' && !state.rulesShown) loadRules();
  markScrolling();
}

/** The tabs: the arrow keys move between them, as in a tab list. */
function tabKeys(ev) {
  const tabs = SCREENS.map((s) => $(`tab-${s}`));
  const at = tabs.indexOf(document.activeElement);
  if (at < 0) return;
  let to = null;
  if (ev.key === 'ArrowRight') to = (at + 1) % tabs.length;
  else if (ev.key === 'ArrowLeft') to = (at + tabs.length - 1) % tabs.length;
  else if (ev.key === 'Home') to = 0;
  else if (ev.key === 'End') to = tabs.length - 1;
  if (to === null) return;
  ev.preventDefault();
  tabs[to].focus();
  tabs[to].click();
}

// ---------------------------------------------------------------- the table

async function loadTable() {
  if (state.loading) {
    state.again = true;
    return;
  }
  state.loading = true;
  try {
    do {
      state.again = false;
      const t = await api('/api/table', { change: true, method: 'GET' });
      drawTable(t);
    } while (state.again);
  } catch (e) {
    showError(e);
  } finally {
    state.loading = false;
  }
}

function drawTable(t) {
  state.table = t;
  const title = (t.ruleset && t.ruleset.title) || 'umpire';
  $('title').textContent = title;
  document.title = `${title} — umpire`;
  $('clock').textContent = (t.clock || []).map((c) => `${spoken(c.name)} ${c.value}`).join(' · ');
  const who = $('who');
  who.textContent = t.can_change ? 'umpire' : 'watching (read-only)';
  who.className = t.can_change ? 'badge umpire' : 'badge watching';
  const deferred = $('deferred-notice');
  deferred.hidden = !t.rules_deferred;
  deferred.textContent = t.rules_deferred ? `Note: ${t.rules_deferred}.` : '';
  drawRoster(t);
  drawQuestionPicks(t);
  fillEditionQuestion();
  drawResult(t);
  drawGame(t);
}

function drawRoster(t) {
  const list = $('roster');
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.unit : undefined;
  list.replaceChildren();
  if (!(t.roster || []).length) {
    list.append(el('li', { class: 'hint' }, 'The state holds no units.'));
    return;
  }
  for (const u of t.roster) {
    const facts = (u.facts || []).map((f) => el('span', { class: 'fact' },
      el('span', { class: 'fact-name' }, spoken(f.name)), ' ', el('b', {}, f.value)));
    const picked = u.key === state.unit;
    const button = el('button', {
      type: 'button',
      class: picked ? 'unit picked' : 'unit',
      'aria-pressed': String(picked),
      'data-unit': u.key,
    },
    el('span', { class: 'unit-name' }, picked ? '▶ ' : '', spoken(u.key)),
    u.group ? el('span', { class: 'unit-group' }, spoken(u.group)) : null,
    el('span', { class: 'facts' }, ...facts));
    button.addEventListener('click', () => pickUnit(u.key));
    list.append(el('li', {}, button));
    if (focused === u.key) button.focus();
  }
}

/** The questions a unit can be asked (whose `unit` is not null), in a select. */
function drawQuestionPicks(t) {
  const qs = t.questions || [];
  const key = qs.map((q) => `${q.name}:${q.unit}`).join(',');
  if (key === state.questionsKey) return;
  state.questionsKey = key;
  const pick = $('ask-pick');
  const had = pick.value;
  pick.replaceChildren(el('option', { value: '' }, '— a question —'));
  // The name alone (a phone cuts a long option); ✎ marks one that may change the state.
  const option = (q) => el('option', { value: q.name }, `${q.name}${q.changes_state ? ' ✎' : ''}`);
  for (const q of qs.filter((x) => x.unit)) pick.append(option(q));
  if (had && qs.some((q) => q.name === had && q.unit)) pick.value = had;
  const game = $('ask-game');
  const hadGame = game.value;
  game.replaceChildren(el('option', { value: '' }, '— a question —'));
  for (const q of gameQuestions(t)) game.append(option(q));
  if (hadGame && gameQuestions(t).some((q) => q.name === hadGame)) game.value = hadGame;
  const odds = $('odds-pick');
  odds.replaceChildren(el('option', { value: '' }, '— a rule or table —'));
  for (const kind of ['table', 'rule', 'modifiers']) {
    const group = el('optgroup', { label: { table: 'Tables', rule: 'Rules', modifiers: 'Modifier lists' }[kind] });
    for (const q of qs.filter((x) => x.kind === kind)) group.append(el('option', { value: q.name }, q.name));
    if (group.children.length) odds.append(group);
  }
}

/** The game's questions: rules asked of no unit, with no parameter to give (`next_turn()`). */
function gameQuestions(t) {
  return (t.questions || []).filter((q) => !q.unit && q.kind === 'rule'
    && (q.params || []).every((p) => p.optional));
}

/** The question box filled from the game's question picked; the unit's list let go. */
function fillGameQuestion() {
  const name = $('ask-game').value;
  if (!name) return;
  $('ask-pick').value = '';
  $('ask-question').value = `${name}()`;
}

function pickUnit(key) {
  state.unit = key;
  const t = state.table;
  if (t) drawRoster(t);
  $('ask-unit').textContent = `Unit: ${spoken(key)}`;
  fillQuestion();
}

/** The question box filled from the unit and question picked. */
function fillQuestion() {
  const t = state.table;
  const name = $('ask-pick').value;
  if (name) $('ask-game').value = '';
  if (!t || !name || !state.unit) return;
  const q = (t.questions || []).find((x) => x.name === name);
  const u = (t.roster || []).find((x) => x.key === state.unit);
  if (!q || !u) return;
  const arg = q.unit === 'path' ? u.path : JSON.stringify(u.key);
  $('ask-question').value = `${q.name}(${arg})`;
}

/** What this page knows of who rolled: the faces it gave, if it asked. */
function whoRolled(ruling, roll, index) {
  const mine = state.mine.get(ruling.id);
  if (!mine || mine.question !== ruling.question) return '';
  if (mine.given === 0) return 'umpire rolled';
  const by = roll.by_umpire || 0;
  const faces = (roll.faces || []).length;
  if (by === 0) return "players' dice";
  if (by >= faces) return 'umpire rolled';
  return `players' ${faces - by}, umpire rolled ${by}`;
}

/** A roll as the page says it: "D10: 6, modified -1 → 5 (players' dice)". */
function rollLine(ruling, roll, index) {
  const faces = (roll.faces || []).join(', ');
  let line = `${roll.name ? `${roll.name} ` : ''}${roll.dice}: ${faces}`;
  if ((roll.faces || []).length > 1 && roll.total !== undefined && roll.total !== null) {
    line += ` (total ${roll.total})`;
  }
  // A modifier is written with its sign, as the rulebook writes one (+1, -1).
  const mods = (roll.modifiers || []).map((m) => (/^[+\-−]/.test(m) ? m : `+${m}`));
  if (roll.modified !== null && roll.modified !== undefined) {
    line += mods.length ? `, modified ${mods.join(', ')} → ${roll.modified}` : `, modified → ${roll.modified}`;
  }
  const who = whoRolled(ruling, roll, index);
  return el('li', {}, el('span', { class: 'roll' }, line), who ? el('span', { class: 'who' }, who) : null);
}

/**
 * The explanation as a nested list, one item per line of `umpire eval --explain`
 * (two spaces of indent a level), each step's citation (`[…]` at its end) set apart.
 */
function drawExplanation(list, ruling) {
  list.replaceChildren();
  const text = ruling.explanation || ruling.text || '';
  const stack = [{ depth: -1, list }];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    const depth = Math.floor((raw.length - raw.trimStart().length) / 2);
    const m = /^(.*?)\s+\[([^\]]+)\]\s*$/.exec(raw.trim());
    const item = el('li', {},
      el('span', { class: 'step' }, m ? m[1] : raw.trim()),
      m ? el('cite', {}, m[2]) : null);
    while (stack.length > 1 && stack[stack.length - 1].depth >= depth) stack.pop();
    const top = stack[stack.length - 1];
    let into = top.list;
    if (top.item && top.depth < depth) {
      into = top.item.querySelector(':scope > ol') || top.item.appendChild(el('ol'));
    }
    into.append(item);
    stack.push({ depth, list: into, item });
  }
}

function drawResult(t) {
  const last = t.last;
  $('result-none').hidden = !!last;
  $('result-body').hidden = !last;
  if (!last) return;
  const mine = state.mine.get(last.id);
  const ruling = mine && mine.question === last.question ? { ...last, ...mine.ruling, applied: last.applied } : last;
  $('result-question').textContent = ruling.question;
  $('headline').textContent = ruling.headline;
  const dice = $('result-dice');
  dice.replaceChildren(...(ruling.rolls || []).map((r, i) => rollLine(ruling, r, i)));
  if (!(ruling.rolls || []).length) dice.append(el('li', { class: 'hint' }, 'No dice were rolled.'));
  const note = $('dice-note');
  note.hidden = !ruling.dice_note;
  note.textContent = ruling.dice_note || '';
  const effects = $('effects');
  effects.replaceChildren(...(ruling.effects || []).map((e) => el('li', {}, el('code', {}, e))));
  const waiting = t.unapplied !== null && t.unapplied !== undefined && t.unapplied === ruling.question;
  let said;
  if (!(ruling.effects || []).length) said = 'No effects.';
  else if (waiting) {
    said = t.can_change ? 'These effects wait: apply them to the table, or drop them.'
      : 'These effects wait for the umpire to apply or drop them.';
  }
  else if (ruling.applied) said = 'Applied to the table.';
  else said = 'Not waiting to be applied (applied, dropped or taken back since: see the history).';
  $('effects-state').textContent = said;
  for (const id of ['apply', 'drop']) {
    const b = $(id);
    enable(b, t.can_change && waiting);
    b.title = t.can_change ? (waiting ? '' : 'No effects wait to be applied') : WATCHING_WHY;
  }
  drawExplanation($('explanation'), ruling);
}

function drawGame(t) {
  const path = t.save_to || t.state_file;
  // The players' page is told the file's name, not where it is on the umpire's disk.
  const where = path && !t.can_change ? String(path).split(/[\\/]/).pop() : path;
  $('game-state').textContent = t.unsaved
    ? `Unsaved changes${where ? ` (the state file: ${where})` : ''}. Dice: ${t.dice}.`
    : `Nothing unsaved${where ? ` (the state file: ${where})` : ''}. Dice: ${t.dice}.`;
  $('game-state').classList.toggle('unsaved', !!t.unsaved);
  const undo = $('undo');
  const redo = $('redo');
  undo.textContent = t.undo ? `Undo: take back ${t.undo}` : 'Undo (nothing to take back)';
  redo.textContent = t.redo ? `Redo: do again ${t.redo}` : 'Redo (nothing to do again)';
  enable(undo, t.can_change && !!t.undo);
  enable(redo, t.can_change && !!t.redo);
  enable($('save'), t.can_change);
  enable($('save-as'), t.can_change);
  enable($('adjudicate'), t.can_change);
  for (const id of ['ask-why', 'change-why']) {
    $(id).hidden = !!t.can_change;
    $(id).textContent = t.can_change ? '' : WATCHING_WHY;
  }
  if (!t.can_change) $('save-confirm').hidden = true;
  const history = $('history');
  history.replaceChildren(...(t.history || []).map((h) => el('li', {}, h)));
  if (!(t.history || []).length) history.append(el('li', { class: 'hint' }, 'Nothing done yet.'));
}

async function adjudicate(ev) {
  ev.preventDefault();
  clearError();
  const question = $('ask-question').value.trim();
  let dice;
  try {
    dice = parseFaces($('ask-dice').value);
  } catch (e) {
    showError(e, true);
    return;
  }
  await busy($('adjudicate'), async () => {
    const answer = await api('/api/adjudicate', { body: { question, dice }, change: true });
    const r = answer.ruling;
    state.mine.set(r.id, { question: r.question, given: dice.length, ruling: r });
    drawTable(answer.table);
    $('headline').focus();
  });
}

/** Apply, drop, undo, redo: the answer's table drawn, what was done said. */
async function change(what, button) {
  clearError();
  await busy(button, async () => {
    const answer = await api(`/api/${what}`, { change: true });
    drawTable(answer.table);
    say(answer.done);
  });
}

/** Says what was done, under the game's state (a status region). */
function say(text) {
  $('done').textContent = text ? `Done: ${text}.` : '';
}

// ---------------------------------------------------------------- saving

/** Whether the save form writes over a file once confirmed, and where. */
const saving = { to: null, confirmed: false };

function openSave(asNew) {
  const t = state.table;
  if (!t) return;
  const form = $('save-confirm');
  const target = t.save_to || t.state_file;
  saving.to = null;
  saving.confirmed = false;
  if (asNew || !target) {
    $('save-name-row').hidden = false;
    $('save-confirm-text').textContent = target
      ? 'Save the state to a new file in the state file\'s folder.'
      : 'The state came from no file: give a name to save it to.';
    $('save-go').textContent = 'Save to the new file';
    form.hidden = false;
    const name = $('save-name');
    if (!name.value.trim() || name.dataset.suggested === name.value) {
      name.value = suggestedName(t);
      name.dataset.suggested = name.value;
    }
    name.focus();
    name.select();
  } else {
    $('save-name-row').hidden = true;
    $('save-confirm-text').textContent = `Write the state over ${target}? The file as it is now is replaced.`;
    $('save-go').textContent = `Yes, write over ${target}`;
    saving.confirmed = true;
    form.hidden = false;
    $('save-go').focus();
  }
}

/** A new file's name from the clock as it stands: `after-turn-4.toml`. */
function suggestedName(t) {
  const ext = /\.json$/i.test(String(t.save_to || t.state_file || '')) ? '.json' : '.toml';
  const parts = (t.clock || []).map((c) => `${c.name}-${c.value}`.replace(/[^A-Za-z0-9_-]+/g, '-'));
  return `after${parts.length ? `-${parts.join('-')}` : ''}${ext}`.replace(/-+/g, '-');
}

function closeSave() {
  $('save-confirm').hidden = true;
  saving.to = null;
  saving.confirmed = false;
}

async function submitSave(ev) {
  ev.preventDefault();
  clearError();
  const naming = !$('save-name-row').hidden;
  const body = {};
  if (naming) {
    const name = $('save-name').value.trim();
    if (!name) {
      showError(new Error(`give the new file a name, such as ${suggestedName(state.table || {})}`), true);
      return;
    }
    body.to = name;
    if (saving.confirmed && saving.to === name) body.confirm = true;
  } else {
    body.confirm = true;
  }
  await busy($('save-go'), async () => {
    try {
      const answer = await api('/api/save', { body, change: true });
      closeSave();
      drawTable(answer.table);
      say(`saved the state to ${answer.saved}`);
      $('save').focus();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && naming) {
        // The file is there already: ask before writing over it.
        saving.to = body.to;
        saving.confirmed = true;
        $('save-confirm-text').textContent = `${e.errors.map((x) => x.message).join('; ')}. Write over it?`;
        $('save-go').textContent = 'Yes, write over it';
        return;
      }
      throw e;
    }
  });
}

// ---------------------------------------------------------------- live: events

function listen() {
  if (!window.EventSource) {
    $('live').textContent = 'not live (reload to see changes)';
    return;
  }
  const events = new EventSource('/api/events');
  let opened = false;
  events.addEventListener('open', () => {
    $('live').textContent = 'live';
    $('live').className = 'badge live';
    // Anything missed while the stream was down.
    if (opened) loadTable();
    opened = true;
  });
  events.addEventListener('error', () => {
    $('live').textContent = 'reconnecting…';
    $('live').className = 'badge offline';
  });
  events.addEventListener('table', (e) => {
    let what = '';
    try {
      what = JSON.parse(e.data).what || '';
    } catch (err) {
      what = '';
    }
    if (what) $('done').textContent = `Last change: ${what}.`;
    loadTable();
  });
  events.addEventListener('rules', () => {
    loadTable();
    loadRules();
  });
}

// ---------------------------------------------------------------- the odds

/** A question started from the one picked: its name and parameters to fill in. */
function oddsStart() {
  const t = state.table;
  const name = $('odds-pick').value;
  if (!t || !name) return;
  const q = (t.questions || []).find((x) => x.name === name);
  if (!q) return;
  const u = state.unit && (t.roster || []).find((x) => x.key === state.unit);
  const params = (q.params || []).filter((p) => !p.optional).map((p, i) => {
    if (i === 0 && u && q.unit === 'path') return u.path;
    if (i === 0 && u && q.unit === 'key') return JSON.stringify(u.key);
    return p.name;
  });
  const box = $('odds-question');
  box.value = `${q.name}(${params.join(', ')})`;
  box.focus();
  box.setSelectionRange(q.name.length + 1, box.value.length - 1);
}

async function odds(ev) {
  ev.preventDefault();
  clearError();
  const question = $('odds-question').value.trim();
  const sweep = $('odds-sweep').value.trim();
  const body = sweep ? { question, sweep } : { question };
  // The umpire's page may stop a long piece of work (POST /api/cancel).
  const stop = $('odds-stop');
  stop.hidden = !TOKEN;
  try {
    await busy($('odds-go'), async () => {
      const answer = await api('/api/odds', { body });
      $('odds-of').textContent = sweep ? `${question}, ${sweep}` : question;
      putSvg($('odds-chart'), answer.svg || '');
      $('odds-text').textContent = answer.text || '';
      $('odds-out').hidden = false;
      markScrolling();
      state.sweep = sweep ? sweptName(sweep) : null;
      sweepHint();
    });
  } finally {
    stop.hidden = true;
  }
}

/** A sweep's name and first value (`m=-3..3` → m, -3), when the name is a free name. */
function sweptName(sweep) {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?\d+(?:\.\d+)?|[^,.\s]+)/.exec(sweep);
  return m ? { name: m[1], first: m[2] } : null;
}

/** Whether `question` still holds the swept name as a word. */
function holdsSwept(question) {
  const sw = state.sweep;
  return !!sw && new RegExp(`(^|[^A-Za-z0-9_.])${sw.name}(?![A-Za-z0-9_])`).test(question);
}

/** The chosen roll after a sweep: the swept name needs a value, and a button gives it one. */
function sweepHint() {
  const box = $('whatif-sweep');
  const sw = state.sweep;
  const on = holdsSwept($('odds-question').value);
  box.hidden = !on;
  if (!on) return;
  $('whatif-sweep-text').textContent = `The question sweeps ${sw.name}: a chosen roll needs one value of it. `
    + `Replace ${sw.name} with a number in the question above (the sweep's first value is ${sw.first}).`;
  $('whatif-sweep-fill').textContent = `Replace ${sw.name} with ${sw.first}`;
}

/** The swept name replaced by its first value in the Odds box (the sweep box emptied). */
function fillSwept() {
  const sw = state.sweep;
  if (!sw) return;
  const box = $('odds-question');
  box.value = box.value.replace(new RegExp(`(^|[^A-Za-z0-9_.])${sw.name}(?![A-Za-z0-9_])`, 'g'),
    (all, before) => `${before}${/^-/.test(sw.first) ? `(${sw.first})` : sw.first}`);
  $('odds-sweep').value = '';
  sweepHint();
  $('whatif-dice').focus();
}

async function stopWork() {
  await busy($('odds-stop'), () => api('/api/cancel', { change: true }));
}

async function whatIf(ev) {
  ev.preventDefault();
  clearError();
  const question = $('odds-question').value.trim();
  if (!question) {
    showError(new Error('write a question in the Odds box first'), true);
    return;
  }
  if (holdsSwept(question)) {
    const sw = state.sweep;
    showError(new Error(`the question still holds the swept name ${sw.name}: replace it with a number (such as ${sw.first}, the sweep's first value) for a chosen roll`), true);
    return;
  }
  let dice;
  try {
    dice = parseFaces($('whatif-dice').value);
  } catch (e) {
    showError(e, true);
    return;
  }
  await busy($('whatif-go'), async () => {
    const answer = await api('/api/what_if', { body: { question, dice } });
    const r = answer.ruling;
    $('whatif-headline').textContent = r.headline;
    $('whatif-dice-out').replaceChildren(...(r.rolls || []).map((x, i) => rollLine(r, x, i)));
    $('whatif-effects').replaceChildren(...(r.effects || []).map((e) => el('li', {}, 'would be: ', el('code', {}, e))));
    drawExplanation($('whatif-explanation'), r);
    $('whatif-out').hidden = false;
  });
}

// ---------------------------------------------------------------- editions

/** Whether row `i` (its cells `row`) is among `changed` (row numbers, or rows of cells). */
function isChanged(changed, i, row) {
  return (changed || []).some((c) => (Array.isArray(c)
    ? c.length === row.length && c.every((x, j) => String(x) === String(row[j]))
    : Number(c) === i));
}

function editionTable(caption, columns, rows, changed) {
  const head = el('tr', {}, el('th', { scope: 'col', class: 'mark' }, el('span', { class: 'sr' }, 'changed?')),
    ...columns.map((c) => el('th', { scope: 'col' }, c)));
  const body = rows.map((row, i) => {
    const ch = isChanged(changed, i, row);
    return el('tr', { class: ch ? 'changed' : null },
      el('td', { class: 'mark' }, ch ? el('span', { class: 'tag' }, '▶', el('span', { class: 'word' }, ' changed')) : ''),
      ...row.map((cell) => el('td', {},
        el('span', { class: String(cell).length > 40 ? 'cell long' : 'cell' }, ch ? el('strong', {}, cell) : cell))));
  });
  return el('div', { class: 'edition' },
    el('div', { class: 'table-box', tabindex: '0', role: 'region', 'aria-label': caption },
      el('table', {}, el('caption', {}, caption), el('thead', {}, head), el('tbody', {}, ...body))),
    el('p', { class: 'hint scroll-hint', hidden: true }, 'Wider than the screen: scroll the table sideways →'));
}

async function loadEditions() {
  try {
    const e = await api('/api/editions');
    state.editions = e;
    drawEditions(e);
  } catch (err) {
    $('editions-what').textContent = 'The editions could not be read.';
    showError(err);
  }
}

function drawEditions(e) {
  const what = $('editions-what');
  const changes = $('editions-changes');
  const tables = $('editions-tables');
  changes.replaceChildren();
  tables.replaceChildren();
  if (!e.base) {
    what.textContent = 'This ruleset extends no other: there is no base edition to set beside it.';
    $('ed-form').hidden = true;
    return;
  }
  what.textContent = `${e.house || 'The house rule'} against its base, ${e.base}: ${(e.changes || []).length} change(s).`;
  for (const c of e.changes || []) {
    changes.append(el('li', {}, el('b', {}, c.what), c.detail ? `: ${c.detail}` : ''));
  }
  for (const t of e.tables || []) {
    const cols = t.columns || [];
    tables.append(el('section', { class: 'card' },
      el('h3', {}, 'Table ', el('code', {}, t.name)),
      el('div', { class: 'side-by-side' },
        editionTable(`${t.name} — ${e.base} (old)`, cols, t.old || [], t.changed_old),
        editionTable(`${t.name} — ${e.house || 'house rule'} (new)`, cols, t.new || [], t.changed_new))));
  }
  $('ed-form').hidden = false;
  fillEditionQuestion();
  markScrolling();
}

/**
 * The Editions odds box, when empty, filled with a real question: the first unit's
 * manoeuvre (`manoeuvre(brigade.grenadiers)`), or else its first question, built as the
 * Table screen builds one.
 */
function fillEditionQuestion() {
  const t = state.table;
  const box = $('ed-question');
  if (!t || box.value.trim()) return;
  const u = (t.roster || [])[0];
  const qs = (t.questions || []).filter((q) => q.unit);
  const q = qs.find((x) => x.name === 'manoeuvre') || qs[0];
  if (!u || !q) return;
  box.value = `${q.name}(${q.unit === 'path' ? u.path : JSON.stringify(u.key)})`;
}

async function editionOdds(ev) {
  ev.preventDefault();
  clearError();
  const question = $('ed-question').value.trim();
  await busy($('ed-go'), async () => {
    const answer = await api('/api/editions/odds', { body: { question } });
    putSvg($('ed-chart'), answer.svg || '');
    $('ed-text').textContent = answer.text || '';
    $('ed-text-box').hidden = !answer.text;
    markScrolling();
  });
}

// ---------------------------------------------------------------- the ruleset

async function loadRules() {
  try {
    const r = await api('/api/rules');
    state.rules = r;
    state.rulesShown = true;
    drawRules(r);
  } catch (err) {
    if (!$('screen-rules').hidden) showError(err);
  }
}

const KIND_NAMES = {
  enum: 'Enums', record: 'Records', state: 'The state', const: 'Constants', constant: 'Constants',
  rule: 'Rules', table: 'Tables', modifiers: 'Modifier lists', interpretation: 'Interpretations',
  list: 'Lists', example: 'Examples',
};

/** A kind's heading: "Tables", "House rule: override table". */
const kindName = (kind) => KIND_NAMES[kind] || (kind.startsWith('override') ? `House rules (${kind})` : kind);

function drawRules(r) {
  $('rules-title').textContent = r.title || 'The ruleset';
  $('rules-cite').textContent = r.cite ? `Cited as: ${r.cite}` : '';
  const problems = r.problems || [];
  const box = $('rules-problems');
  drawDiagnostics(box, problems,
    problems.length ? `The ruleset files on disk have ${problems.length} problem(s)${r.checked_at ? ` (checked ${r.checked_at})` : ''}:` : '');
  const errors = problems.filter((p) => !p.warning).length;
  const notice = $('rules-notice');
  notice.hidden = errors === 0;
  notice.replaceChildren();
  if (errors) {
    notice.append(`A ruleset file changed on disk and does not check (${errors} error(s)); the game goes on with the ruleset that last checked. `,
      el('a', { href: '#rules' }, 'See the Ruleset screen.'));
  }
  const groups = new Map();
  for (const d of r.definitions || []) {
    if (!groups.has(d.kind)) groups.set(d.kind, []);
    groups.get(d.kind).push(d);
  }
  const list = $('rules-list');
  list.replaceChildren();
  for (const [kind, defs] of groups) {
    const section = el('section', { class: 'card kind', 'data-kind': kind },
      el('h3', {}, kindName(kind)));
    for (const d of defs) {
      const where = d.file ? `${d.file}${d.line ? `:${d.line}` : ''}` : '';
      section.append(el('article', { class: 'definition', 'data-name': d.name, 'data-search': `${d.name} ${d.signature || ''} ${d.cite || ''} ${d.doc || ''}`.toLowerCase() },
        el('h4', {}, el('code', {}, d.signature || d.name)),
        d.cite ? el('p', { class: 'cite' }, el('cite', {}, d.cite)) : null,
        d.overridden_by ? el('p', { class: 'overridden' }, `▶ changed by the house rule ${d.overridden_by}`) : null,
        d.doc ? el('p', { class: 'doc' }, d.doc) : null,
        d.text ? el('details', {}, el('summary', {}, `As written${where ? ` (${where})` : ''}`), el('pre', {}, d.text))
          : (where ? el('p', { class: 'hint' }, where) : null)));
    }
    list.append(section);
  }
  filterRules();
}

function filterRules() {
  const words = $('rules-filter').value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  let total = 0;
  for (const section of document.querySelectorAll('#rules-list .kind')) {
    let any = false;
    for (const d of section.querySelectorAll('.definition')) {
      total += 1;
      const ok = words.every((w) => d.dataset.search.includes(w));
      d.hidden = !ok;
      if (ok) {
        any = true;
        shown += 1;
      }
    }
    section.hidden = !any;
  }
  $('rules-count').textContent = words.length ? `${shown} of ${total} definitions` : `${total} definitions`;
}

// ---------------------------------------------------------------- start

function start() {
  window.addEventListener('hashchange', showScreen);
  document.querySelector('.tabs').addEventListener('keydown', tabKeys);
  showScreen();
  $('ask').addEventListener('submit', adjudicate);
  $('ask-pick').addEventListener('change', fillQuestion);
  $('ask-game').addEventListener('change', fillGameQuestion);
  $('odds-question').addEventListener('input', sweepHint);
  $('whatif-sweep-fill').addEventListener('click', fillSwept);
  window.addEventListener('resize', markScrolling);
  $('apply').addEventListener('click', (e) => change('apply', e.currentTarget));
  $('drop').addEventListener('click', (e) => change('drop', e.currentTarget));
  $('undo').addEventListener('click', (e) => change('undo', e.currentTarget));
  $('redo').addEventListener('click', (e) => change('redo', e.currentTarget));
  $('save').addEventListener('click', () => openSave(false));
  $('save-as').addEventListener('click', () => openSave(true));
  $('save-cancel').addEventListener('click', closeSave);
  $('save-confirm').addEventListener('submit', submitSave);
  $('save-confirm').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') closeSave();
  });
  $('odds-form').addEventListener('submit', odds);
  $('odds-pick').addEventListener('change', oddsStart);
  $('odds-stop').addEventListener('click', stopWork);
  $('whatif-form').addEventListener('submit', whatIf);
  $('ed-form').addEventListener('submit', editionOdds);
  $('rules-filter').addEventListener('input', filterRules);
  $('headline').setAttribute('tabindex', '-1');
  if (!TOKEN) {
    for (const id of ['ask-why', 'change-why']) {
      $(id).hidden = false;
      $(id).textContent = WATCHING_WHY;
    }
  }
  loadTable();
  listen();
}

start();
