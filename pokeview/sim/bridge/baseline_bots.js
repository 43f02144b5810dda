'use strict';
// poke-env's MaxBasePowerPlayer and SimpleHeuristicsPlayer (poke_env/player/baselines.py), for
// singles, deciding from a side's view kept in the bridge (poke_env_view.js): the same choice
// pokeview/players/bots.py gets from poke-env, from the same view and seed, so a game of these
// bots can be played whole (whole.js). Where poke-env's choice would not name a legal action
// (bots.py then draws a fallback), `Unread` is thrown and Python plays the game.
const {Mon, unread, DATA, typeOf} = require('./poke_env_view');
/** @typedef {import('./poke_env_view').View} View */
const {randomChoice, choiceOf} = require('./random_choice');

/** @typedef {import('./random_choice').Order} Order */
/** @typedef {{id: string, entry: any}} Move */

const ENTRY_HAZARDS = /** @type {{[move: string]: string}} */ ({
  spikes: 'SPIKES', stealthrock: 'STEALTH_ROCK', stickyweb: 'STICKY_WEB', toxicspikes: 'TOXIC_SPIKES',
});
const SPECIAL_MOVES = new Set(['struggle', 'recharge']);
const RECHARGE = {pp: 1, type: 'normal', category: 'Special', accuracy: 1}; // Move.entry's own
const ANTI_HAZARDS_MOVES = new Set(['rapidspin', 'defog']);
const SPEED_TIER_COEFICIENT = 0.1;
const HP_FRACTION_COEFICIENT = 0.4;
const SWITCH_OUT_MATCHUP_THRESHOLD = -2;

/** Move.base_power */
const basePower = (/** @type {Move} */ m) => m.entry.basePower || 0;
/** Move.accuracy */
const accuracy = (/** @type {Move} */ m) => (m.entry.accuracy === true ? 1.0 : m.entry.accuracy / 100);
/** Move.type */
const moveType = (/** @type {Move} */ m) => typeOf(m.entry.type);

/** Move.expected_hits @param {Move} m */
function expectedHits(m) {
  if (m.id === 'triplekick' || m.id === 'tripleaxel') return 1 + 2 * 0.9 + 3 * 0.81;
  const hits = m.entry.multihit;
  if (hits === undefined) return 1;
  if (!Array.isArray(hits)) return hits;
  if (hits[0] === hits[1]) return hits[0];
  if (hits[0] !== 2 || hits[1] !== 5) unread(`${m.id} hits ${hits}`);
  return (2 + 3) / 3 + (4 + 5) / 6;
}

/** Python's max(items, key=key): the first of the greatest. @template T @param {T[]} items @param {(item: T) => number} key */
function first(items, key) {
  let best = items[0];
  let top = key(best);
  for (const item of items.slice(1)) {
    const value = key(item);
    if (value > top) [best, top] = [item, value];
  }
  return best;
}

/** Battle.available_moves, from the request @param {View} view @param {any} request @returns {Move[]} */
function availableMoves(view, request) {
  if (!request.active || !request.active.length) return [];
  const active = view.active;
  if (!active) return [];
  const own = request.side.pokemon.find((/** @type {any} */ mon) => mon.active);
  const known = new Set(own ? own.moves : []);
  /** @type {Move[]} */
  const moves = [];
  for (const move of request.active[0].moves) {
    if (move.disabled) continue;
    // A move not in the Pokémon's set is one of poke-env's special moves, or one it asserts
    // about (a move called by another).
    if (!known.has(move.id) && !SPECIAL_MOVES.has(move.id)) unread(`the move ${move.id}`);
    const entry = move.id === 'recharge' ? RECHARGE : DATA.moves[move.id];
    if (!entry) unread(`the move ${move.id}`);
    moves.push({id: move.id, entry});
  }
  return moves;
}

/** Battle.available_switches, from the request @param {View} view @param {any} request @returns {[string, Mon][]} */
function availableSwitches(view, request) {
  if (request.active && request.active[0] && request.active[0].trapped) return [];
  const side = request.side.pokemon;
  if (side.some((/** @type {any} */ mon) => mon.reviving)) unread('Revival Blessing');
  /** @type {[string, Mon][]} */
  const switches = [];
  for (const own of side) {
    const mon = /** @type {Mon} */ (view.team.get(String(own.ident)));
    if (!mon.active && !mon.fainted) switches.push([String(own.ident).slice(4), mon]);
  }
  return switches;
}

/** SimpleHeuristicsPlayer._estimate_matchup @param {Mon} mon @param {Mon} opponent */
function estimateMatchup(mon, opponent) {
  let score = Math.max(...mon.types.map((t) => opponent.damageMultiplier(t)));
  score -= Math.max(...opponent.types.map((t) => mon.damageMultiplier(t)));
  if (mon.baseStats.spe > opponent.baseStats.spe) score += SPEED_TIER_COEFICIENT;
  else if (opponent.baseStats.spe > mon.baseStats.spe) score -= SPEED_TIER_COEFICIENT;
  score += mon.hpFraction * HP_FRACTION_COEFICIENT;
  score -= opponent.hpFraction * HP_FRACTION_COEFICIENT;
  return score;
}

/** SimpleHeuristicsPlayer._stat_estimation @param {Mon} mon @param {string} stat */
function statEstimation(mon, stat) {
  const boosts = mon.boosts[stat];
  const boost = boosts > 1 ? (2 + boosts) / 2 : 2 / (2 - boosts);
  return ((2 * mon.baseStats[stat] + 31) + 5) * boost;
}

/** SimpleHeuristicsPlayer._should_switch_out @param {Mon} active @param {Mon} opponent @param {[string, Mon][]} switches */
function shouldSwitchOut(active, opponent, switches) {
  // (each estimated, as poke-env's list is: one may raise)
  if (!switches.map(([, mon]) => estimateMatchup(mon, opponent)).some((score) => score > 0)) return false;
  const {boosts, stats} = active;
  if (stats.atk === undefined || stats.spa === undefined) unread('no stats in the request');
  if (boosts.def <= -3 || boosts.spd <= -3) return true;
  if (boosts.atk <= -3 && stats.atk >= stats.spa) return true;
  if (boosts.spa <= -3 && stats.atk <= stats.spa) return true;
  return estimateMatchup(active, opponent) < SWITCH_OUT_MATCHUP_THRESHOLD;
}

/** SimpleHeuristicsPlayer._should_terastallize @param {Mon} active @param {Mon} opponent @param {Move} move @param {any} request */
function shouldTerastallize(active, opponent, move, request) {
  if (!request.active[0].canTerastallize || active.teraType === null) return false;
  const tera = /** @type {string} */ (active.teraType);
  const offensive = opponent.damageMultiplier(moveType(move));
  const defensive = Math.min(...opponent.types.map((t) => 1 / (active.damageMultiplier(t) || 1 / 8)));
  const asTera = new Mon();
  asTera.type1 = tera;
  const defensiveTera = Math.min(...opponent.types.map((t) => 1 / (asTera.damageMultiplier(t) || 1 / 8)));
  return offensive * (defensiveTera / defensive) > 1;
}

/** SimpleHeuristicsPlayer.choose_singles_move @param {View} view @param {any} request @returns {Order | null} */
function heuristic(view, request) {
  const active = view.active;
  const opponent = view.opponent;
  if (!active || !opponent) return null;
  const physicalRatio = statEstimation(active, 'atk') / statEstimation(opponent, 'def');
  const specialRatio = statEstimation(active, 'spa') / statEstimation(opponent, 'spd');
  const moves = availableMoves(view, request);
  const switches = availableSwitches(view, request);
  if (moves.length && (!switches.length || !shouldSwitchOut(active, opponent, switches))) {
    const remaining = [...view.team.values()].filter((mon) => !mon.fainted).length;
    const opponentRemaining = 6 - [...view.opponents.values()].filter((mon) => mon.fainted).length;
    for (const move of moves) {
      const hazard = ENTRY_HAZARDS[move.id];
      if (opponentRemaining >= 3 && hazard && !view.opponentConditions.has(hazard)) return ['move', move.id, false];
      if (view.sideConditions.size && ANTI_HAZARDS_MOVES.has(move.id) && remaining >= 2) return ['move', move.id, false];
    }
    // The set-up moves' branch compares Move.target, a Target, with the string "self": it
    // never chooses, so only its estimate is made (for where poke-env's raises).
    if (active.hpFraction === 1) estimateMatchup(active, opponent);
    const score = (/** @type {Move} */ m) => basePower(m) *
      (active.types.includes(moveType(m)) ? 1.5 : 1) *
      (m.entry.category === 'Physical' ? physicalRatio : specialRatio) *
      accuracy(m) * expectedHits(m) * opponent.damageMultiplier(moveType(m));
    const move = first(moves, score);
    return ['move', move.id, shouldTerastallize(active, opponent, move, request)];
  }
  if (switches.length) return ['switch', first(switches, ([, mon]) => estimateMatchup(mon, opponent))[0], false];
  return null;
}

/** MaxBasePowerPlayer.choose_singles_move @param {View} view @param {any} request @returns {Order | null} */
function maxBasePower(view, request) {
  const moves = availableMoves(view, request);
  if (!moves.length) return null;
  return ['move', first(moves, basePower).id, false];
}

const BOTS = {heuristic, 'max-damage': maxBasePower};

/**
 * The bot's choice for this request, read after the battle's log so far; null where the bot
 * draws poke-env's random move and the bridge's copy of it cannot say.
 * @param {'heuristic' | 'max-damage'} bot
 * @param {View} view
 * @param {string[]} log  the battle's log
 * @param {any} request
 * @param {bigint} seed
 * @returns {string | null}
 */
function baselineChoice(bot, view, log, request, seed) {
  if (request.teamPreview) unread('team preview');
  view.follow(log);
  view.parseRequest(request);
  // poke-env's order_to_action takes the first switch whose name is the Pokémon's, or whose
  // name in lower case is its species: a name that is another's species could name another
  for (const own of request.side.pokemon) {
    const name = String(own.ident).slice(4).toLowerCase();
    for (const [key, mon] of view.team) if (key !== own.ident && mon.species === name) unread(`the name ${own.ident}`);
  }
  const order = BOTS[bot](view, request);
  if (order === null) return randomChoice(request, seed); // Player.choose_random_move
  const choice = choiceOf(order, request);
  if (choice === null) unread(`an order no action names: ${order}`);
  return choice;
}

module.exports = {baselineChoice};
