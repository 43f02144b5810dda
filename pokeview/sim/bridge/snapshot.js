'use strict';
// What one side knows at the end of a step (a side's state, declared in pokeview/game/side.py):
// its own team exactly (from the simulator), the opponent and the field as far as seen (from
// that side's @pkmn/client battle, the same knowledge Showdown's client has), for the model's
// prompt and the board. And, for a replay, what each side's view shows with no simulator.

/**
 * What is read of a dex, Showdown's (a request's snapshot) or @pkmn/dex's (a replay's).
 * @typedef {{
 *   currentMod?: string,
 *   abilities: {get(id: string): {name: string}},
 *   items: {get(id: string): {name: string}},
 *   moves: {get(id: string): {name: string, type: string, category: string, basePower: number,
 *     accuracy: number | true, shortDesc?: string, desc?: string}},
 * }} AnyDex
 * @typedef {import('@pkmn/client').Battle} ClientBattle
 * @typedef {import('@pkmn/client').Side} ClientSide
 * @typedef {import('./words').ClientPokemon} ClientPokemon
 */

/** @type {Map<string, object>} */
const moveInfoCache = new Map(); // the same few hundred moves, asked at every request
/**
 * @param {AnyDex} dex
 * @param {string} id
 */
function moveInfo(dex, id) {
  const key = `${dex.currentMod}|${id}`;
  let info = moveInfoCache.get(key);
  if (!info) {
    const move = dex.moves.get(id);
    info = {
      name: move.name, type: move.type, category: move.category, basePower: move.basePower,
      accuracy: move.accuracy, desc: move.shortDesc || move.desc || '',
    };
    moveInfoCache.set(key, info);
  }
  return info;
}

// Conditions whose Showdown name is an id, or that are only the client's own bookkeeping.
/** @type {Record<string, string>} */
const VOLATILE_NAMES = {
  confusion: 'Confusion', typechange: 'Type change', typeadd: 'Type added',
  mustrecharge: 'Must recharge', airballoon: 'Air Balloon', itemremoved: 'Item removed',
  formechange: 'Forme change', transform: 'Transformed', dynamax: 'Dynamax', trapped: 'Trapped',
};

// Volatiles whose `level` is a count to show (Transform's is the copied Pokémon's level).
const COUNTED = new Set(['stockpile', 'autotomize']);

/**
 * @param {any} dex Showdown's or @pkmn/dex's, both with conditions, moves, abilities, items
 * @param {string} id
 */
function effectName(dex, id) {
  if (VOLATILE_NAMES[id]) return VOLATILE_NAMES[id];
  for (const kind of ['conditions', 'moves', 'abilities', 'items']) {
    const effect = dex[kind].get(id);
    if (effect && effect.exists && effect.name && effect.name !== effect.id) return effect.name;
  }
  return id.charAt(0).toUpperCase() + id.slice(1);
}

// Only what a reader needs: absent keys take their defaults (pokeview/game/side.py), so the
// record grows little for what most Pokémon do not have.
/**
 * @param {Record<string, unknown>} object
 * @param {string} key
 * @param {unknown} value
 */
function setIf(object, key, value) {
  if (value !== undefined && value !== null && value !== '' && value !== 0 && value !== false &&
      !(Array.isArray(value) && !value.length)) object[key] = value;
}

/**
 * @param {AnyDex} dex
 * @param {any} clientMon a client Pokémon, or the few fields ownClientMon reads of one
 */
function volatilesOf(dex, clientMon) {
  if (!clientMon) return [];
  return Object.values(clientMon.volatiles).map((/** @type {any} */ v) => {
    /** @type {Record<string, unknown>} */
    const out = {id: v.id, name: effectName(dex, v.id)};
    // Perish Song's count is kept as its duration; Stockpile and Autotomize count in `level`.
    const level = v.id === 'perishsong' ? v.duration : COUNTED.has(v.id) ? v.level : undefined;
    if (typeof level === 'number') out.level = level;
    setIf(out, 'stat', v.stat);
    setIf(out, 'type', v.apparentType || v.type);
    return out;
  });
}

// The PP a foe was seen to use: a number, or [most, least] when Pressure leaves it open.
/** @param {{name: string, ppUsed?: unknown}} slot */
function seenSlot(slot) {
  /** @type {Record<string, unknown>} */
  const out = {name: slot.name};
  const used = slot.ppUsed;
  if (Array.isArray(used)) {
    out.ppUsed = used[1];
    out.ppUsedMost = used[0];
  } else if (typeof used === 'number' && Number.isFinite(used)) {
    out.ppUsed = used;
  }
  return out;
}

// What the client knows of a Pokémon beyond the snapshot's first fields (issue 31).
/**
 * @param {Record<string, unknown>} entry
 * @param {AnyDex} dex
 * @param {any} clientMon
 */
function knownDetails(entry, dex, clientMon) {
  if (!clientMon) return entry;
  setIf(entry, 'volatiles', volatilesOf(dex, clientMon));
  setIf(entry, 'itemEffect', clientMon.itemEffect);
  setIf(entry, 'lastItem', clientMon.lastItem ? dex.items.get(clientMon.lastItem).name : '');
  setIf(entry, 'lastItemEffect', clientMon.lastItemEffect);
  const counters = clientMon.statusState || {};
  if (clientMon.status === 'slp') setIf(entry, 'sleepTurns', counters.sleepTurns);
  if (clientMon.status === 'tox') setIf(entry, 'toxicTurns', counters.toxicTurns);
  return entry;
}

/**
 * @param {string} name
 * @param {any} state the client's record of a condition: level, minDuration, maxDuration
 */
function turnsOf(name, state) {
  /** @type {Record<string, unknown>} */
  const out = {name};
  if (state && state.level && state.level > 1) out.level = state.level;
  setIf(out, 'minTurns', state && state.minDuration);
  setIf(out, 'maxTurns', state && state.maxDuration);
  return out;
}

/**
 * @param {AnyDex} dex
 * @param {any} field the client battle's field
 * @param {ClientSide | undefined | null} mine
 * @param {ClientSide | undefined | null} theirs
 */
function fieldOf(dex, field, mine, theirs) {
  /** @type {any[]} */
  const pseudo = Object.values(field.pseudoWeather || {});
  /** @type {Record<string, unknown>} */
  const out = {
    weather: field.weather || '',
    terrain: field.terrain || '',
    pseudoWeather: pseudo.map((p) => dex.moves.get(p.id).name || p.id),
    mine: sideConditionsOf(mine),
    theirs: sideConditionsOf(theirs),
  };
  if (field.weather) out.weatherTurns = turnsOf(field.weather, field.weatherState);
  if (field.terrain) out.terrainTurns = turnsOf(field.terrain, field.terrainState);
  setIf(out, 'pseudoWeatherTurns', pseudo.map((p) => turnsOf(dex.moves.get(p.id).name || p.id, p)));
  return out;
}

/** @param {ClientPokemon | null} clientMon */
function boostsOf(clientMon) {
  if (!clientMon) return {};
  /** @type {{[stat: string]: number}} */
  const out = {};
  for (const [stat, value] of Object.entries(clientMon.boosts || {})) if (value) out[stat] = value;
  return out;
}

// A snapshot holds nothing the battles change later (arrays are copied): the next one is sent as
// differences from it (differences.js).

// A Pokémon as a side's @pkmn/client battle knows it (the opponent's, or any in a replay).
/**
 * @param {AnyDex} dex
 * @param {ClientPokemon} mon
 * @param {ClientSide} side
 */
function publicMon(dex, mon, side) {
  return knownDetails({
    // A Pokémon that used Transform keeps its own name (poke-env's too); the client's
    // `speciesForme` is the target's, which showed Ditto as the Pokémon it copied.
    species: mon.volatiles.transform ? mon.baseSpeciesForme : mon.speciesForme,
    active: side.active[0] === mon,
    types: [...mon.types],
    level: mon.level,
    hp: mon.hp,
    maxhp: mon.maxhp,
    status: mon.status || '',
    fainted: !!mon.fainted,
    ability: mon.ability ? dex.abilities.get(mon.ability).name : '',
    item: mon.item ? dex.items.get(mon.item).name : '',
    terastallized: mon.terastallized || mon.teraUsed || '', // kept past a faint (words.js)
    boosts: boostsOf(mon),
    moves: mon.moveSlots.filter((slot) => !slot.virtual).map((slot) => slot.name),
    moveSlots: mon.moveSlots.filter((slot) => !slot.virtual).map(seenSlot),
  }, dex, mon);
}

/** @param {ClientSide | undefined | null} side */
function sideConditionsOf(side) {
  if (!side) return [];
  return Object.values(side.sideConditions).map((c) => {
    /** @type {Record<string, unknown>} */
    const out = {name: c.name, level: c.level};
    setIf(out, 'minTurns', c.minDuration);
    setIf(out, 'maxTurns', c.maxDuration);
    return out;
  });
}

/**
 * @param {ClientSide | undefined} clientSide
 * @param {any} mon the simulator's Pokémon
 */
function ownClientMon(clientSide, mon) {
  if (!clientSide || mon.isActive) return null;
  const known = clientSide.team.find((m) => m.name === mon.name && !m.isActive());
  // A benched Pokémon has no volatiles: only its status counters are read.
  return known ? {volatiles: {}, statusState: known.statusState, status: known.status} : null;
}

/**
 * @param {ClientSide | undefined} clientSide
 * @param {string} name
 */
function usedTera(clientSide, name) {
  /** @type {ClientPokemon | undefined} */
  const known = clientSide ? clientSide.team.find((m) => m.name === name) : undefined;
  return known ? known.teraUsed : undefined;
}

// A side's state: `battle` is the simulator's, `client` that side's @pkmn/client battle.
/**
 * @param {import('pokemon-showdown/dist/sim/battle').Battle} battle
 * @param {import('./protocol').SideId} sideId
 * @param {ClientBattle} client
 */
function snapshot(battle, sideId, client) {
  const side = battle.getSide(sideId);
  const dex = battle.dex;
  const clientSide = client[sideId]; // the client names its sides by player name, not by slot
  const clientFoe = clientSide && clientSide.foe;
  const team = side.pokemon.map((mon) => {
    const clientMon = mon.isActive && clientSide ? clientSide.active[0] : null;
    /** @type {{[field: string]: unknown}} */
    const entry = {
      species: mon.details.split(',')[0],
      active: mon.isActive,
      types: [...mon.getTypes()],
      level: mon.level,
      hp: mon.hp,
      maxhp: mon.maxhp,
      status: mon.status || '',
      fainted: mon.fainted,
      ability: dex.abilities.get(mon.ability).name,
      item: mon.item ? dex.items.get(mon.item).name : '',
      teraType: mon.teraType || '',
      // Showdown deletes a fainted Pokémon's `terastallized`, as @pkmn/client does: the
      // client's record of it (words.js) keeps the side's used Tera said.
      terastallized: mon.terastallized || usedTera(clientSide, mon.name) || '',
      stats: {
        atk: mon.storedStats.atk, def: mon.storedStats.def, spa: mon.storedStats.spa,
        spd: mon.storedStats.spd, spe: mon.storedStats.spe,
      },
      moves: mon.moveSlots.map((slot) => slot.move),
    };
    if (mon.isActive) {
      entry.boosts = boostsOf(clientMon);
      entry.moveInfo = mon.moveSlots.map((slot) => moveInfo(dex, slot.id));
    }
    // PP left and disabled moves, as the side's own requests tell it.
    entry.moveSlots = mon.moveSlots.map((slot) => {
      /** @type {Record<string, unknown>} */
      const out = {name: slot.move, pp: slot.pp, maxpp: slot.maxpp};
      if (slot.disabled) out.disabled = true;
      return out;
    });
    // Volatiles and counters as the side's client saw them (the active one's; a benched
    // Pokémon keeps only its sleep count, which the client carries).
    return knownDetails(entry, dex, clientMon || ownClientMon(clientSide, mon));
  });
  const foeTeam = clientFoe ? clientFoe.team.map((mon) => publicMon(dex, mon, clientFoe)) : [];
  const field = client.field;
  return {
    turn: battle.turn,
    format: battle.format.name,
    me: side.name,
    foe: side.foe.name,
    team,
    foeTeam,
    foeTotal: clientFoe ? clientFoe.totalPokemon : 6,
    field: fieldOf(dex, field, clientSide, clientFoe),
  };
}

// A replay's public knowledge of both sides at one point (no simulator: only the log's lines).
/**
 * @param {ClientBattle} client
 * @param {import('./protocol').SideId} sideId
 */
function publicSnapshot(client, sideId) {
  const me = client[sideId];
  const foe = me && me.foe;
  const dex = client.gen.dex;
  return {
    turn: client.turn,
    format: client.tier || '',
    me: me ? me.name : '',
    foe: foe ? foe.name : '',
    team: me ? me.team.map((mon) => publicMon(dex, mon, me)) : [],
    foeTeam: foe ? foe.team.map((mon) => publicMon(dex, mon, foe)) : [],
    foeTotal: foe ? foe.totalPokemon : 6,
    field: fieldOf(dex, client.field, me, foe),
  };
}

module.exports = {snapshot, publicSnapshot};
