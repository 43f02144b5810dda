'use strict';
// What a player on one side knows when asked to decide, for the model's prompt: its own team
// exactly (from the simulator), the opponent and the field as far as seen (from that side's
// @pkmn/client battle, the same knowledge Showdown's client has). And, for a replay, what
// each side's view shows with no simulator at all.

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
  return {
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
  };
}

/** @param {ClientSide | undefined | null} side */
function sideConditionsOf(side) {
  return side ? Object.values(side.sideConditions).map((c) => ({name: c.name, level: c.level})) : [];
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

// A side at a request: `battle` is the simulator's, `client` that side's @pkmn/client battle.
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
    return entry;
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
    field: {
      weather: field.weather || '',
      terrain: field.terrain || '',
      pseudoWeather: Object.keys(field.pseudoWeather || {}).map((id) => dex.moves.get(id).name || id),
      mine: sideConditionsOf(clientSide),
      theirs: sideConditionsOf(clientFoe),
    },
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
    field: {
      weather: client.field.weather || '',
      terrain: client.field.terrain || '',
      pseudoWeather: Object.keys(client.field.pseudoWeather || {}).map((id) => dex.moves.get(id).name || id),
      mine: sideConditionsOf(me),
      theirs: sideConditionsOf(foe),
    },
  };
}

module.exports = {snapshot, publicSnapshot};
