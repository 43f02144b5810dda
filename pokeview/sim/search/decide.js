'use strict';
const {FORMAT, lib} = require('./packages');
const {prngSeed, showdownSeed} = require('./prng');
const {readView, feed, ownTeam, foeTeam} = require('./sample');
const {build, leadFirst, fieldOf} = require('./determinize');
const {bestMove, typeScore, policyMove, policySwitch, settle, playNode} = require('./evaluate');
const {solve} = require('./matrix');
const {Budget, cpuMs, nodeCost} = require('./budget');

/**
 * One search as Python asks it (pokeview/players/search.py): a side's request and legal actions,
 * the protocol lines that side saw (`stream` names the side of one game, whose view is kept),
 * the seed, the budget, the look-ahead depth and how many determinizations at most.
 * @typedef {{
 *   side: 'p1' | 'p2', request: import('./sample').Request, actions: string[], seed: string | number,
 *   lines?: string[], stream?: string, budget?: import('./budget').BudgetSpec, depth?: number,
 *   samples?: number,
 * }} Query
 * @typedef {import('./determinize').Determinization} Determinization
 * @typedef {import('./sample').View} View
 * @typedef {import('pokemon-showdown/dist/sim/battle').Battle} Battle
 * @typedef {Iterable<Determinization>} Determinizations
 * @typedef {{values: (number | null)[], probs: number[], samples: number}} Outcome
 */

// -- one decision: the matrix games over the determinizations ----------------------------------

/**
 * @param {Determinization} det
 * @param {Battle} root
 * @returns {string[]}
 */
function foeChoices(det, root) {
  // The foe's moves and switch-ins, likeliest first (its strongest move against our active
  // first, then its other moves, then its switch-ins by how they trade), so a budget cut drops
  // the least likely answers.
  const side = root.getSide(det.foe);
  const active = side.active[0];
  const target = side.foe.active[0];
  const moves = active.moveSlots.map((slot, i) => ({
    choice: `move ${i + 1}`,
    score: 1e6 + (target ? typeScore(root.dex, active, root.dex.moves.get(slot.id), target) : 0),
  }));
  /** @type {{choice: string, score: number}[]} */
  const switches = [];
  side.pokemon.forEach((mon, i) => {
    if (i === 0 || mon.fainted) return;
    let score = mon.hp / mon.maxhp;
    if (target) score *= (bestMove(root, mon, target).score + 20) / (bestMove(root, target, mon).score + 20);
    switches.push({choice: `switch ${i + 1}`, score});
  });
  return [...moves, ...switches].sort((a, b) => b.score - a.score).map((x) => x.choice);
}

const KEEP = 4;

/**
 * @param {Determinization} det
 * @param {string} myChoice
 * @param {string} foeChoice
 * @param {number} depth
 * @param {number[]} nodeSeed
 */
function timedNode(det, myChoice, foeChoice, depth, nodeSeed) {
  const wall = performance.now();
  const cpu = cpuMs();
  const value = playNode(det, myChoice, foeChoice, depth, nodeSeed);
  nodeCost.wall = 0.8 * nodeCost.wall + 0.2 * (performance.now() - wall);
  nodeCost.cpu = 0.8 * nodeCost.cpu + 0.2 * (cpuMs() - cpu);
  return value;
}

// One matrix game per determinization: rows are our actions (Showdown choices in the simulated
// battle), columns the foe's actions in that determinization (its bench is sampled, so each
// determinization has its own). A row's value is its payoff against the foe's equilibrium mix,
// averaged over the determinizations that were played through.
/**
 * @param {Determinizations} dets
 * @param {string[]} rows
 * @param {import('./budget').Budget} budget
 * @param {number} depth
 * @param {string | number} seed
 * @returns {Outcome}
 */
function searchMatrix(dets, rows, budget, depth, seed) {
  const rowValue = new Array(rows.length).fill(0);
  const rowWeight = new Array(rows.length).fill(0);
  const rowProb = new Array(rows.length).fill(0);
  let live = rows.map((_, i) => i); // the rows still searched
  let screened = false;
  let samples = 0;
  const next = dets[Symbol.iterator]();
  // Sampling a determinization and building it cost about two nodes: check before either.
  while (!budget.spent(3)) {
    const {value: det, done} = next.next();
    if (done) break;
    const nodeSeed = prngSeed(seed, det.index, 'node');
    const root = build(det, nodeSeed);
    budget.count();
    const cols = foeChoices(det, root);
    /** @type {(number | null | undefined)[][]} */
    const matrix = rows.map(() => new Array(cols.length).fill(null));
    /** @type {number[]} */
    const doneCols = [];
    // Whole columns (foe actions), likeliest first: a budget cut leaves out unlikely foe actions,
    // never some of our own.
    for (let j = 0; j < cols.length; j++) {
      let complete = true;
      for (const i of live) {
        if (budget.spent()) {
          complete = false;
          break;
        }
        matrix[i][j] = timedNode(det, rows[i], cols[j], depth, nodeSeed);
        budget.count();
      }
      if (!complete) break;
      doneCols.push(j);
      if (!screened) {
        // After every row has met the foe's likeliest answer, only the best third (at least
        // KEEP) go on to meet the others: more of the foe's answers for the same budget.
        screened = true;
        live = live
          .filter((i) => typeof matrix[i][0] === 'number')
          .sort((a, b) => Number(matrix[b][0]) - Number(matrix[a][0]) || a - b) // numbers: filtered above
          .slice(0, Math.max(KEEP, Math.ceil(rows.length / 3)))
          .sort((a, b) => a - b);
      }
    }
    if (!doneCols.length) continue;
    // Rows Showdown refused (null) are left out; a column the foe could not play (undefined) too.
    const cj = doneCols.filter((j) => live.every((i) => matrix[i][j] !== undefined));
    const ri = live.filter((i) => cj.length && cj.every((j) => typeof matrix[i][j] === 'number'));
    if (!ri.length || !cj.length) continue;
    const sub = ri.map((i) => cj.map((j) => Number(matrix[i][j]))); // numbers: ri keeps those rows
    const {p, q} = solve(sub);
    ri.forEach((i, a) => {
      rowValue[i] += sub[a].reduce((acc, v, b) => acc + v * q[b], 0);
      rowWeight[i] += 1;
      rowProb[i] += p[a];
    });
    samples++;
  }
  const values = rows.map((_, i) => (rowWeight[i] ? rowValue[i] / rowWeight[i] : null));
  const probs = rows.map((_, i) => (samples ? rowProb[i] / samples : 0));
  return {values, probs, samples};
}

/**
 * @param {Query} input
 * @param {View} view
 * @param {number} count
 * @returns {Generator<Determinization>}
 */
function* determinizations(input, view, count) {
  // Made as the search reaches them: sampling a foe team costs about as much as a node.
  const me = input.side;
  const foe = me === 'p1' ? 'p2' : 'p1';
  const own = ownTeam(input.request, view, me);
  const field = fieldOf(view, me, foe);
  for (let k = 0; k < count; k++) {
    const foeMons = foeTeam(view, foe, [input.seed, k]);
    /** @type {Determinization} */
    const det = {
      index: k, me, foe, ownMons: own, ownTeam: leadFirst(own), foeTeam: leadFirst(foeMons), field,
      hidden: foeMons.filter((m) => m.hidden).length,
    };
    yield det;
  }
}

/**
 * @param {View} view
 * @param {'p1' | 'p2'} me
 */
function hidden(view, me) {
  const foe = view[me === 'p1' ? 'p2' : 'p1'];
  return foe ? Math.max(0, (foe.totalPokemon || 6) - foe.team.length) : 6;
}

// The side's view, kept between its decisions: each search of the same stream feeds only the
// lines it has not seen (a stream is one side of one game; only that side's lines go in).
/** @type {Map<string, {view: View, count: number, last: string | undefined}>} */
const views = new Map();
const MAX_VIEWS = 64;

/** @param {Query} input */
function viewFor(input) {
  const lines = input.lines || [];
  const key = input.stream;
  const kept = key ? views.get(key) : null;
  if (kept && kept.count <= lines.length && (kept.count === 0 || lines[kept.count - 1] === kept.last)) {
    feed(kept.view, lines.slice(kept.count));
    kept.count = lines.length;
    kept.last = lines[lines.length - 1];
    return kept.view;
  }
  const view = readView(lines);
  if (key) {
    views.delete(key);
    views.set(key, {view, count: lines.length, last: lines[lines.length - 1]});
    const oldest = views.keys().next().value;
    if (views.size > MAX_VIEWS && oldest !== undefined) views.delete(oldest);
  }
  return view;
}

/**
 * @param {import('./sample').Request} request
 * @param {string[]} actions
 * @returns {string[]}
 */
function ownRows(request, actions) {
  // The legal actions as choices in the simulated battle: moves by id (a locked or encored
  // request numbers its moves differently from the full moveset).
  const activeMoves = (request.active && request.active[0] && request.active[0].moves) || [];
  return actions.map((choice) => {
    const [kind, arg, gimmick] = choice.split(' ');
    if (kind !== 'move') return choice;
    const move = activeMoves[Number(arg) - 1];
    return `move ${move ? move.id : arg}${gimmick ? ' ' + gimmick : ''}`;
  });
}

/**
 * @param {Query} input
 * @param {Determinizations} dets
 * @param {import('./budget').Budget} budget
 * @param {number} depth
 * @returns {Outcome}
 */
function forcedSwitch(input, dets, budget, depth) {
  // Our active fainted: each switch-in is scored by the game of the turn after it comes in
  // (its two strongest moves against the foe's answers), sharing the budget equally.
  const actions = input.actions;
  const values = new Array(actions.length).fill(0);
  const weights = new Array(actions.length).fill(0);
  let samples = 0;
  const next = dets[Symbol.iterator]();
  while (!budget.spent(3)) {
    const {value: det, done} = next.next();
    if (done) break;
    const piece = budget.share(1);
    let any = false;
    actions.forEach((choice, r) => {
      const slot = Number(choice.split(' ')[1]) - 1;
      const own = det.ownMons.map((m, i) => ({...m, active: i === slot}));
      const candidate = {...det, ownTeam: leadFirst(own)};
      const probe = build(candidate, prngSeed(input.seed, det.index, 'probe'));
      const me = probe.getSide(det.me);
      const lead = me.active[0];
      const target = me.foe.active[0];
      const ranked = lead.moveSlots
        .map((slot, i) => ({i, score: target ? typeScore(probe.dex, lead, probe.dex.moves.get(slot.id), target) : 0}))
        .sort((a, b) => b.score - a.score)
        .slice(0, 2)
        .map((x) => `move ${x.i + 1}`);
      const sub = searchMatrix([candidate], ranked, piece.share(actions.length - r), depth, input.seed);
      const known = sub.values.filter((v) => v !== null);
      if (!known.length) return;
      values[r] += Math.max(...known);
      weights[r] += 1;
      any = true;
    });
    if (any) samples++;
  }
  return {
    values: actions.map((_, r) => (weights[r] ? values[r] / weights[r] : null)),
    probs: actions.map(() => 0),
    samples,
  };
}

/**
 * @param {Query} input
 * @param {View} view
 */
function fallback(input, view) {
  const det = /** @type {Determinization} */ (determinizations(input, view, 1).next().value); // there is always one
  const battle = build(det, prngSeed(input.seed, 'fallback'));
  const me = battle.getSide(det.me);
  if (input.request.forceSwitch) {
    // The switch-in that trades best with the foe's active; simulated slots back to the request's.
    const pick = policySwitch(battle, me).choice;
    const simSlot = Number(pick.split(' ')[1]) || 1;
    const slot = det.ownTeam[simSlot - 1] ? det.ownTeam[simSlot - 1].slot + 1 : 0;
    return Math.max(0, input.actions.indexOf(`switch ${slot}`));
  }
  const mon = me.active[0];
  const target = me.foe.active[0];
  let best = 0;
  let bestScore = -1;
  ownRows(input.request, input.actions).forEach((choice, i) => {
    const [kind, id] = choice.split(' ');
    const score = kind === 'move' && mon && target ? typeScore(battle.dex, mon, battle.dex.moves.get(id), target) : 0;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

/** @param {Query} input */
function search(input) {
  const started = performance.now();
  const cpuStarted = cpuMs();
  const budget = new Budget(input.budget || {});
  const depth = input.depth || 1;
  const view = viewFor(input);
  const dets = determinizations(input, view, input.samples || 64);
  const result = input.request.forceSwitch
    ? forcedSwitch(input, dets, budget, depth)
    : searchMatrix(dets, ownRows(input.request, input.actions), budget, depth, input.seed);
  // Choose: the best value against the foe's equilibrium mix; ties to the more played action,
  // then to the earlier one. With nothing searched (a budget smaller than one node), the
  // strongest-looking move.
  let best = result.values.every((v) => v === null) ? fallback(input, view) : -1;
  result.values.forEach((v, i) => {
    if (v === null) return;
    const bestValue = /** @type {number} */ (result.values[best]); // a value once best >= 0
    if (best < 0 || v > bestValue + 1e-9 ||
        (Math.abs(v - bestValue) <= 1e-9 && result.probs[i] > result.probs[best])) best = i;
  });
  return {
    index: best < 0 ? 0 : best,
    values: result.values.map((v) => (v === null ? null : Math.round(v * 1000) / 1000)),
    probs: result.probs.map((p) => Math.round(p * 1000) / 1000),
    nodes: budget.nodes,
    samples: result.samples,
    hidden: hidden(view, input.side),
    elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
    // CPU time of this process: below elapsed_ms when other processes share the cores.
    cpu_ms: Math.round((cpuMs() - cpuStarted) * 10) / 10,
  };
}

function warmUp() {
  // A fresh process runs Showdown several times slower until the JIT has seen it: play some
  // nodes before saying ready, so the first decisions of a game get their budget's worth.
  const teams = [1, 2].map((n) => lib.Teams.generate(FORMAT, {seed: [n, 7, 7, 7]}));
  const deadline = performance.now() + 1500;
  for (let n = 0; n < 400 && performance.now() < deadline; n++) {
    const battle = new lib.Battle({formatid: FORMAT, seed: showdownSeed([n, 1, 2, 3]), p1: {name: 'p1', team: teams[0]}, p2: {name: 'p2', team: teams[1]}});
    for (let turn = 0; turn < 3 && !battle.ended; turn++) {
      for (const side of battle.sides) {
        if (!battle.choose(side.id, policyMove(battle, side))) battle.choose(side.id, 'default');
      }
      settle(battle);
    }
  }
}

module.exports = {search, warmUp, determinizations, foeChoices, ownRows};
