'use strict';
// poke-env's RandomPlayer's choice, made from a request alone, in the bridge: the same choice
// pokeview/players/random_choice.py makes in Python, from the same seed. A game of random bots
// is then played inside the bridge, without a trip to Python at every choice (autoplay.js);
// Python checks each choice against its own and records it.
//
// Python's `random.Random(seed).random()` for an int seed is CPython's Mersenne Twister, seeded
// with init_by_array over the seed's 32-bit words (least significant first), and a float made of
// two draws. Where the Python returns None (poke-env is asked instead), this returns null.
const {createHash} = require('node:crypto');

const N = 624;
// init_genrand(19650218), where every seeding starts: the same each time, so made once.
const START = new Uint32Array(N);
START[0] = 19650218;
for (let i = 1; i < N; i++) START[i] = Math.imul(1812433253, START[i - 1] ^ (START[i - 1] >>> 30)) + i;
const mt = new Uint32Array(N); // one state, reused: a draw runs to its end before the next

/**
 * The first `random()` of `random.Random(seed)` in CPython, for 0 <= seed < 2**64.
 * @param {bigint} seed
 * @returns {number}
 */
function pythonRandom(seed) {
  const low = Number(seed & 0xffffffffn);
  const high = Number(seed >> 32n);
  const keyLength = high ? 2 : 1; // the seed's 32-bit words, least significant first
  mt.set(START);
  // init_by_array's two passes, each run from word 1 to the last and then word 1 once more
  // (the C wraps its index inside one loop; here the wrap is taken out of the loops).
  let j = 0;
  for (let i = 1; i < N; i++) {
    const prev = mt[i - 1];
    mt[i] = (mt[i] ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + (j ? high : low) + j;
    if (++j >= keyLength) j = 0;
  }
  mt[0] = mt[N - 1];
  mt[1] = (mt[1] ^ Math.imul(mt[0] ^ (mt[0] >>> 30), 1664525)) + (j ? high : low) + j;
  for (let i = 2; i < N; i++) {
    const prev = mt[i - 1];
    mt[i] = (mt[i] ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i;
  }
  mt[0] = mt[N - 1];
  mt[1] = (mt[1] ^ Math.imul(mt[0] ^ (mt[0] >>> 30), 1566083941)) - 1;
  mt[0] = 0x80000000;
  // The first two outputs need only the first three words twisted, and word 397 and 398.
  const a = temper(twist(mt, 0)) >>> 5;
  const b = temper(twist(mt, 1)) >>> 6;
  return (a * 67108864 + b) / 9007199254740992;
}

/**
 * @param {Uint32Array} mt
 * @param {number} k
 */
function twist(mt, k) {
  const y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7fffffff);
  return (mt[k + 397] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
}

/** @param {number} y */
function temper(y) {
  y ^= y >>> 11;
  y ^= (y << 7) & 0x9d2c5680;
  y ^= (y << 15) & 0xefc60000;
  y ^= y >>> 18;
  return y >>> 0;
}

/**
 * pokeview/battle/seeds.py's decision_seed: the first 8 bytes of SHA-256, big-endian.
 * @param {string} gameSeed
 * @param {string} side
 * @param {number} index
 */
function decisionSeed(gameSeed, side, index) {
  return createHash('sha256').update(`${gameSeed}:${side}:${index}`).digest().readBigUInt64BE(0);
}

/** Python's truth of a JSON value: empty lists and objects are false too. @param {unknown} v */
function truthy(v) {
  if (Array.isArray(v)) return v.length > 0;
  if (v && typeof v === 'object') return Object.keys(v).length > 0;
  return !!v;
}

const ALNUM = /^[\p{L}\p{N}]+$/u; // str.isalnum(), for the ids Showdown sends

/** str.isascii() @param {string} text */
function isAscii(text) {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** @typedef {['switch' | 'move', string, boolean]} Order  (kind, name or move id, terastallize) */

/**
 * `battle.valid_orders` as poke-env builds them; null where the Python is unsure.
 * @param {any} request  Showdown's request
 * @returns {Order[] | null}
 */
function orderList(request) {
  const side = request.side.pokemon;
  /** @type {string[]} */
  const names = side.map((/** @type {any} */ mon) => mon.ident.slice(4));
  if (new Set(names).size !== names.length) return null;
  for (const name of names) if (!isAscii(name) || name.toLowerCase() === name) return null;
  if (Array.isArray(request.active) && !request.active.length) return null; // Python's IndexError
  const active = request.active ? request.active[0] : null;
  if (active && (truthy(active.canMegaEvo) || truthy(active.canZMove) || truthy(active.canDynamax) ||
    truthy(active.maxMoves) || truthy(active.canUltraBurst))) return null;
  /** @type {Order[]} */
  const orders = [];
  if (!(active && truthy(active.trapped))) {
    const reviving = side.some((/** @type {any} */ mon) => truthy(mon.reviving));
    side.forEach((/** @type {any} */ mon, /** @type {number} */ n) => {
      const fainted = mon.condition === '0 fnt';
      if (reviving ? fainted : !truthy(mon.active) && !fainted) orders.push(['switch', names[n], false]);
    });
  }
  const forceSwitch = request.forceSwitch != null ? request.forceSwitch : [false];
  if (!active || truthy(forceSwitch[0])) return orders;
  if (!side.some((/** @type {any} */ mon) => truthy(mon.active))) return orders;
  /** @type {string[]} */
  const moves = [];
  for (const move of active.moves || []) {
    if (truthy(move.disabled)) continue;
    const id = move.id;
    if (!ALNUM.test(id) || /^(return|frustration|hiddenpower)/.test(id)) return null;
    moves.push(id);
  }
  for (const id of moves) orders.push(['move', id, false]);
  if (truthy(active.canTerastallize)) for (const id of moves) orders.push(['move', id, true]);
  return orders;
}

/**
 * The choice of the first legal action (pokeview/battle/actions.py's order) an order names.
 * @param {Order} order
 * @param {any} request
 * @returns {string | null}
 */
function choiceOf([kind, what, tera], request) {
  const side = request.side.pokemon;
  if (kind === 'switch') {
    if (!truthy(request.forceSwitch)) { // moves come first, then switches unless trapped
      if (!truthy(request.active)) return null;
      if (truthy(request.active[0].trapped)) return null;
    }
    const reviving = side.some((/** @type {any} */ mon) => truthy(mon.active) && truthy(mon.reviving));
    for (const [n, mon] of side.entries()) {
      if (truthy(mon.active) || String(mon.condition).endsWith(' fnt') !== reviving) continue;
      const ident = String(mon.ident);
      const name = ident.includes(': ') ? ident.slice(ident.indexOf(': ') + 2) : ident;
      if (name === what) return `switch ${n + 1}`;
    }
    return null;
  }
  if (truthy(request.forceSwitch) || !truthy(request.active)) return null;
  const active = request.active[0];
  if (tera && !truthy(active.canTerastallize)) return null;
  for (const [n, move] of (active.moves || []).entries()) {
    const usable = !truthy(move.disabled) && !(move.pp != null && move.pp <= 0 && truthy(move.maxpp));
    if (usable && (move.id === what || String(move.id).startsWith(what))) {
      return tera ? `move ${n + 1} terastallize` : `move ${n + 1}`;
    }
  }
  return null;
}

/**
 * The choice RandomPlayer makes with this seed, or null when only poke-env can say.
 * @param {any} request
 * @param {bigint} seed
 * @returns {string | null}
 */
function randomChoice(request, seed) {
  if (!request || request.teamPreview || request.wait || !request.side) return null;
  const orders = orderList(request);
  if (!orders || !orders.length) return null;
  return choiceOf(orders[Math.floor(pythonRandom(seed) * orders.length)], request);
}

module.exports = {pythonRandom, decisionSeed, orderList, choiceOf, randomChoice};
