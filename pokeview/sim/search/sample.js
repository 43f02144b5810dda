'use strict';
const {FORMAT, lib} = require('./packages');
const {prngSeed, showdownSeed} = require('./prng');

/**
 * A side's view (its @pkmn/client battle), and what the search reads of Showdown's request.
 * @typedef {import('@pkmn/client').Battle} View
 * @typedef {import('@pkmn/client').Pokemon} ClientPokemon
 * @typedef {{
 *   details: string, condition: string, moves: string[], baseAbility?: string, ability?: string,
 *   item?: string, teraType?: string, stats: {[stat: string]: number}, terastallized?: string,
 *   active?: boolean,
 * }} RequestMon
 * @typedef {{
 *   side: {pokemon: RequestMon[]}, forceSwitch?: boolean[],
 *   active?: {moves: {id: string}[], trapped?: boolean}[],
 * }} Request
 * A set as the search builds it (the simulator fills in what it leaves out).
 * @typedef {{
 *   name: string, species: string, level: number, gender?: string, moves: string[],
 *   ability: string, item: string, teraType?: string, evs?: object, ivs?: object,
 * }} PokemonSet
 * @typedef {{[stat: string]: number}} Boosts
 *
 * A member of the determinized battle's teams, as sampled: its set and what is known of its state.
 * @typedef {{
 *   set: PokemonSet, status: string, fainted: boolean, item: string, terastallized: string,
 *   boosts: Boosts, volatiles?: string[], active: boolean,
 *   hp?: number, maxhp?: number, stats?: {[stat: string]: number}, ability?: string,
 *   hpFraction?: number, hidden?: boolean,
 * }} Mon
 * @typedef {ReturnType<typeof lib.Teams.getGenerator>} Generator
 */

// -- what the side saw --------------------------------------------------------------------------

/** @param {string[]} lines */
function readView(lines) {
  const battle = new lib.ClientBattle(lib.gens);
  feed(battle, lines);
  return battle;
}

/**
 * @param {View} battle
 * @param {string[]} lines
 */
function feed(battle, lines) {
  for (const line of lines) {
    let parsed;
    try {
      parsed = lib.Protocol.parseBattleLine(line);
    } catch (e) {
      continue;
    }
    try {
      battle.add(parsed.args, parsed.kwArgs);
    } catch (e) {
      // A line the client model cannot follow leaves what it knew before it.
    }
  }
}

/** @param {string} condition */
function parseCondition(condition) {
  // "123/300 par", "0 fnt", "55/100"
  const [hpPart, status] = condition.split(' ');
  const [hp, maxhp] = hpPart.split('/').map(Number);
  return {hp: hp || 0, maxhp: maxhp || 0, status: status === 'fnt' ? '' : status || '', fainted: status === 'fnt' || hp === 0};
}

/** @param {string} details */
function detailsOf(details) {
  const parts = details.split(', ');
  let level = 100;
  let gender = '';
  for (const part of parts.slice(1)) {
    if (/^L\d+$/.test(part)) level = Number(part.slice(1));
    else if (part === 'M' || part === 'F') gender = part;
  }
  return {species: parts[0], level, gender};
}

const EVS = {hp: 85, atk: 85, def: 85, spa: 85, spd: 85, spe: 85};
const IVS = {hp: 31, atk: 31, def: 31, spa: 31, spd: 31, spe: 31};

// Own team: exactly as the request says, in request order (the active first).
/**
 * @param {Request} request
 * @param {View} view
 * @param {'p1' | 'p2'} sideId
 * @returns {Mon[]}
 */
function ownTeam(request, view, sideId) {
  const clientSide = view[sideId];
  const clientActive = clientSide && clientSide.active[0];
  return request.side.pokemon.map((mon) => {
    const {species, level, gender} = detailsOf(mon.details);
    const cond = parseCondition(mon.condition);
    const set = {
      name: species, species, level, gender,
      moves: mon.moves.slice(),
      ability: mon.baseAbility || mon.ability || '',
      item: mon.item || '',
      teraType: mon.teraType || undefined,
      evs: EVS, ivs: IVS,
    };
    return {
      set,
      hp: cond.hp, maxhp: cond.maxhp, status: cond.status, fainted: cond.fainted,
      stats: mon.stats, item: mon.item || '', ability: mon.ability || '',
      terastallized: mon.terastallized || '',
      boosts: mon.active && clientActive ? {...clientActive.boosts} : {},
      volatiles: mon.active ? volatilesOf(clientActive) : [],
      active: !!mon.active,
    };
  });
}

/** @param {(string | number)[]} seedParts */
function generatorFor(seedParts) {
  return lib.Teams.getGenerator(FORMAT, showdownSeed(prngSeed(...seedParts)));
}

/**
 * @param {Generator} generator
 * @param {string} speciesName
 * @returns {PokemonSet}
 */
function sampleSet(generator, speciesName) {
  const dex = lib.dex;
  let species = dex.species.get(speciesName);
  const tried = [species.name, species.baseSpecies, species.changesFrom, species.battleOnly].filter(Boolean);
  for (const name of tried) {
    const id = dex.species.get(String(name)).id;
    if (generator.randomSets[id]) {
      try {
        return generator.randomSet(String(name), {}, false, false);
      } catch (e) {
        // fall through to a plain set
      }
    }
  }
  species = dex.species.get(speciesName);
  return {
    name: species.name, species: species.name, level: 80, moves: ['tackle'], ability: species.abilities[0],
    item: '', teraType: species.types[0], evs: EVS, ivs: IVS,
  };
}

/** @type {string[] | null} */
let pool = null;
/** @param {Generator} generator */
function speciesPool(generator) {
  if (!pool) pool = Object.keys(generator.randomSets).sort();
  return pool;
}

// Foe team: revealed Pokémon as seen, their unseen parts and the unseen bench sampled.
/**
 * @param {View} view
 * @param {'p1' | 'p2'} foeId
 * @param {(string | number)[]} seedParts
 * @returns {Mon[]}
 */
function foeTeam(view, foeId, seedParts) {
  const clientFoe = view[foeId];
  const generator = generatorFor([...seedParts, 'foe']);
  const dex = lib.dex;
  const seen = clientFoe ? clientFoe.team : [];
  const total = clientFoe && clientFoe.totalPokemon ? clientFoe.totalPokemon : 6;
  /** @type {Mon[]} */
  const mons = [];
  for (const mon of seen) {
    const set = sampleSet(generator, mon.speciesForme);
    set.species = mon.speciesForme;
    set.name = mon.speciesForme;
    set.level = mon.level || set.level;
    set.gender = mon.gender || '';
    const revealed = mon.moveSlots.filter((s) => !s.virtual).map((s) => s.id);
    const moves = revealed.slice(0, 4);
    for (const m of set.moves.map((x) => dex.moves.get(x).id)) {
      if (moves.length >= 4) break;
      if (!moves.includes(m)) moves.push(m);
    }
    set.moves = moves;
    if (mon.baseAbility || mon.ability) set.ability = mon.baseAbility || mon.ability;
    let item = set.item;
    if (mon.item) item = mon.item;
    else if (mon.lastItem || mon.itemEffect) item = ''; // known to have lost it
    set.item = item;
    if (mon.terastallized) set.teraType = mon.terastallized;
    mons.push({
      set,
      hpFraction: mon.maxhp ? mon.hp / mon.maxhp : 1,
      status: mon.status && /** @type {string} */ (mon.status) !== 'fnt' ? mon.status : '',
      fainted: !!mon.fainted || mon.hp === 0,
      item,
      terastallized: mon.terastallized || '',
      boosts: {...mon.boosts},
      volatiles: volatilesOf(mon),
      active: !!(clientFoe && clientFoe.active[0] === mon),
    });
  }
  // The unseen bench: species drawn from the format's random-battle pool (not one already
  // seen), each given a set by the generator itself.
  const seenBase = new Set(mons.map((m) => dex.species.get(m.set.species).baseSpecies));
  const pool = speciesPool(generator);
  for (let tries = 0; mons.length < total && tries < 200; tries++) {
    const species = pool[generator.prng.random(pool.length)];
    const base = dex.species.get(species).baseSpecies;
    if (seenBase.has(base)) continue;
    seenBase.add(base);
    const set = sampleSet(generator, species);
    mons.push({set, hpFraction: 1, status: '', fainted: false, item: set.item, terastallized: '', boosts: {}, active: false, hidden: true});
  }
  return mons;
}

// The volatiles a side can see that change what the next turns are worth; the rest are dropped.
const CARRIED = ['substitute', 'leechseed', 'confusion', 'taunt', 'yawn', 'saltcure', 'curse'];

/** @param {ClientPokemon | null | undefined} clientMon */
function volatilesOf(clientMon) {
  if (!clientMon || !clientMon.volatiles) return [];
  const carried = CARRIED.filter((id) => clientMon.volatiles[id]);
  // Protect used last: a second one in a row may fail (without this, it never would).
  if (clientMon.lastMove && lib.dex.moves.get(clientMon.lastMove).stallingMove) carried.push('stall');
  return carried;
}

module.exports = {volatilesOf, readView, feed, parseCondition, detailsOf, ownTeam, foeTeam, EVS, IVS};
