'use strict';
const {WIN} = require('./packages');
const {build} = require('./determinize');
const {showdownSeed} = require('./prng');

/**
 * @typedef {import('pokemon-showdown/dist/sim/battle').Battle} Battle
 * @typedef {import('pokemon-showdown/dist/sim/side').Side} Side
 * @typedef {import('pokemon-showdown/dist/sim/pokemon').Pokemon} Pokemon
 * @typedef {import('./determinize').Determinization} Determinization
 */

// -- playing a node ------------------------------------------------------------------------------

/**
 * @param {Battle['dex']} dex
 * @param {Pokemon} attacker
 * @param {import('pokemon-showdown/dist/sim/dex-moves').Move} move
 * @param {Pokemon} target
 */
function typeScore(dex, attacker, move, target) {
  if (move.category === 'Status') return 0;
  const targetTypes = target.getTypes();
  if (!dex.getImmunity(move.type, targetTypes)) return 0;
  const eff = Math.pow(2, dex.getEffectiveness(move.type, targetTypes));
  const stab = attacker.getTypes().includes(move.type) ? 1.5 : 1;
  const power = move.basePower || (move.damageCallback || move.damage ? 60 : 0);
  const ratio = move.category === 'Physical'
    ? attacker.storedStats.atk / Math.max(1, target.storedStats.def)
    : attacker.storedStats.spa / Math.max(1, target.storedStats.spd);
  return power * eff * stab * ratio;
}

/**
 * @param {Battle} battle
 * @param {Pokemon} mon
 * @param {Pokemon} target
 */
function bestMove(battle, mon, target) {
  let best = 0;
  let bestScore = -1;
  mon.moveSlots.forEach((slot, i) => {
    if (slot.disabled || slot.pp <= 0) return;
    const score = typeScore(battle.dex, mon, battle.dex.moves.get(slot.id), target);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return {index: best, score: Math.max(0, bestScore)};
}

/**
 * @param {Battle} battle
 * @param {Pokemon} mon
 * @param {Pokemon | undefined} foe
 */
function trade(battle, mon, foe) {
  // How well `mon` trades blows with `foe`: its HP fraction times its best damage over the foe's.
  let score = mon.hp / mon.maxhp;
  if (foe && !foe.fainted) score *= (bestMove(battle, mon, foe).score + 20) / (bestMove(battle, foe, mon).score + 20);
  return score;
}

/**
 * @param {Battle} battle
 * @param {Side} side
 */
function policySwitch(battle, side) {
  // A switch inside the search (after a faint, a U-turn, a lost matchup): the Pokémon with the
  // best trade against the foe's active.
  const foeActive = side.foe.active[0];
  /** @type {number | null} */
  let best = null;
  let bestScore = -Infinity;
  side.pokemon.forEach((mon, i) => {
    if (mon.fainted || mon.isActive) return;
    const score = trade(battle, mon, foeActive);
    if (score > bestScore) {
      bestScore = score;
      best = i + 1;
    }
  });
  return best ? {choice: `switch ${best}`, score: bestScore} : {choice: 'pass', score: -Infinity};
}

/**
 * @param {Battle} battle
 * @param {Side} side
 * @returns {string}
 */
function policyMove(battle, side) {
  // Both sides' play in the turns after the searched one: the strongest move, or a switch when
  // the matchup is lost and the bench has a much better one (a foe that never switches is too
  // easy: seed 001's second lesson).
  const mon = side.active[0];
  const target = side.foe.active[0];
  if (!mon || mon.fainted || !target || target.fainted) return 'default';
  const stay = trade(battle, mon, target);
  const request = side.activeRequest;
  const trapped = request && 'active' in request && request.active && request.active[0] &&
    request.active[0].trapped;
  if (!trapped) {
    const out = policySwitch(battle, side);
    if (out.score > 2 * stay + 0.2) return out.choice;
  }
  return `move ${bestMove(battle, mon, target).index + 1}`;
}

/** @param {Battle} battle */
function settle(battle) {
  // Answer forced switches (a faint, a U-turn) until the next turn starts or the game ends.
  for (let guard = 0; guard < 8 && !battle.ended && battle.requestState === 'switch'; guard++) {
    for (const side of battle.sides) {
      const req = side.activeRequest;
      if (!req || req.wait) continue;
      if (!battle.choose(side.id, policySwitch(battle, side).choice)) battle.choose(side.id, 'default');
    }
  }
}

// Weights after Foul Play's evaluation, scaled to a Pokémon's HP = 1.
/** @type {{[status: string]: number}} */
const STATUS_COST = {brn: 0.25, par: 0.25, psn: 0.1, tox: 0.25, slp: 0.25, frz: 0.4};
/** @type {{[condition: string]: number}} */
const HAZARD_COST = {stealthrock: 0.1, spikes: 0.07, toxicspikes: 0.07, stickyweb: 0.05}; // per Pokémon behind
/** @type {{[condition: string]: number}} */
const SCREEN_GAIN = {reflect: 0.2, lightscreen: 0.2, auroraveil: 0.3, tailwind: 0.1};
const BOOST_WEIGHT = {atk: 0.15, spa: 0.15, spe: 0.15, def: 0.08, spd: 0.08, accuracy: 0.03, evasion: 0.03};

/** @param {Side} side */
function sideValue(side) {
  // Material: each Pokémon standing is worth 0.75 plus its HP fraction, whether seen or not.
  let value = 0;
  let behind = 0;
  for (const mon of side.pokemon) {
    if (mon.fainted || mon.hp <= 0) continue;
    if (!mon.isActive) behind++;
    value += 0.75 + mon.hp / mon.maxhp;
    value -= STATUS_COST[mon.status] || 0;
  }
  const active = side.active[0];
  if (active && !active.fainted && active.hp > 0) {
    for (const [stat, weight] of Object.entries(BOOST_WEIGHT)) {
      value += weight * Math.max(-4, Math.min(4, active.boosts[stat] || 0));
    }
  }
  for (const [id, state] of Object.entries(side.sideConditions)) {
    if (HAZARD_COST[id]) value -= HAZARD_COST[id] * (state.layers || 1) * behind;
    if (SCREEN_GAIN[id]) value += SCREEN_GAIN[id];
  }
  return value;
}

/**
 * @param {Battle} battle
 * @param {string} me
 */
function evaluate(battle, me) {
  const mine = battle.getSide(me);
  if (battle.ended) {
    if (!battle.winner) return 0;
    return battle.winner === mine.name ? WIN : -WIN;
  }
  return sideValue(mine) - sideValue(mine.foe);
}

// How much of a node's value the turns after the searched one carry (see lambdaReturn). On the
// first 40 pairs of the depth sweep, where depth 1 won 78.8% of 80 games: depth 2 scored by its
// last turn alone (1, one sampled roll) won 48.8%; 0.5 with sampled rolls 68.8%, with middle
// rolls 72.5%; 0.3 with middle rolls 75.0%.
const LAMBDA = 0.3;

// The turns after the searched one are played with every draw at the middle of its range: no crit,
// the middle damage roll, a move that hits more often than not hits, a secondary effect below 50%
// never happens. One sampled roll of them made the luckiest-looking action win the matrix.
/** @type {import('pokemon-showdown/dist/sim/prng').PRNG['rng']} */
const MEDIAN_RNG = {next: () => 0x80000000, getSeed: () => showdownSeed([0, 0, 0, 0])};

/**
 * @param {Determinization} det
 * @param {string} myChoice
 * @param {string} foeChoice
 * @param {number} depth
 * @param {number[]} nodeSeed
 * @returns {number[] | null | undefined}
 */
function playout(det, myChoice, foeChoice, depth, nodeSeed) {
  // The searched turn (the joint action, on the node's seed), then depth - 1 turns of the greedy
  // policy for both sides: the evaluation after each turn (a game that ends keeps its result for
  // the turns left). null: Showdown refused our action; undefined: it refused the foe's.
  const battle = build(det, nodeSeed);
  if (!battle.choose(det.me, myChoice)) return null;
  if (!battle.choose(det.foe, foeChoice)) return undefined;
  settle(battle);
  const evals = [evaluate(battle, det.me)];
  if (depth > 1) battle.prng.rng = MEDIAN_RNG;
  for (let d = 1; d < depth && !battle.ended; d++) {
    for (const side of battle.sides) {
      if (!battle.choose(side.id, policyMove(battle, side))) battle.choose(side.id, 'default');
    }
    settle(battle);
    evals.push(evaluate(battle, det.me));
  }
  while (evals.length < depth) evals.push(evals[evals.length - 1]);
  return evals;
}

/**
 * @param {number[]} evals
 * @param {number} [lambda]
 */
function lambdaReturn(evals, lambda = LAMBDA) {
  // (1 - l) (e1 + l e2 + l^2 e3 + ...) + l^(d-1) ed, as TD(lambda) weighs n-step returns: the
  // searched turn keeps weight 1 - l and each later turn a shrinking share, so depth refines
  // depth 1's value instead of replacing it. Depth 1: e1 itself.
  const last = evals.length - 1;
  let value = 0;
  for (let k = 0; k < last; k++) value += (1 - lambda) * Math.pow(lambda, k) * evals[k];
  return value + Math.pow(lambda, last) * evals[last];
}

/**
 * @param {Determinization} det
 * @param {string} myChoice
 * @param {string} foeChoice
 * @param {number} depth
 * @param {number[]} nodeSeed
 */
function playNode(det, myChoice, foeChoice, depth, nodeSeed) {
  const evals = playout(det, myChoice, foeChoice, depth, nodeSeed);
  return evals ? lambdaReturn(evals) : evals;
}

module.exports = {policyMove, policySwitch, settle, evaluate, playout, lambdaReturn, playNode, LAMBDA, bestMove, typeScore};
