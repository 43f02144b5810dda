'use strict';
// The commands that start a battle: its format and players, their teams read and checked.
const {need} = require('./packages');
const {SIDES} = require('./protocol');

const {Teams} = need('pokemon-showdown/dist/sim/teams');
const {TeamValidator} = need('pokemon-showdown/dist/sim/team-validator');
const {Dex} = need('pokemon-showdown/dist/sim/dex');

/** @typedef {import('pokemon-showdown/dist/sim/dex-formats').Format} Format */
/** @typedef {import('pokemon-showdown/dist/sim/teams').PokemonSet} PokemonSet */
/** @typedef {{exists: boolean, gen: number, isNonstandard: string | null, name: string}} Thing */

/**
 * @param {string | undefined} team
 * @param {string} side
 * @param {Format} format
 * @returns {string | undefined}
 */
function toTeam(team, side, format) {
  // Accepts packed, export or JSON teams; returns the packed form Showdown takes.
  if (team === undefined || team === null || team === '') return undefined;
  const sets = Teams.import(String(team));
  if (!sets || !sets.length) throw new Error(`the team for ${side} could not be read (packed or export format expected)`);
  if (format && Dex.forFormat(format).gen === 1) for (const set of sets) gen1Set(set, side);
  return Teams.pack(sets);
}

/**
 * @param {Format} format
 * @param {PokemonSet[]} sets
 * @param {string} side
 */
function notFromLaterGens(format, sets, side) {
  // Custom games validate nothing; a Pokémon or a move from a later generation then crashes the
  // simulator deep inside ("reading 'types'"). Say which one, and why. (Items and abilities
  // from later generations are only ignored by the older simulators.)
  const dex = Dex.forFormat(format);
  for (const set of sets) {
    /** @type {[string, Thing][]} */
    const checks = [
      ['Pokémon', dex.species.get(set.species)],
      ...(set.moves || []).map((m) => /** @type {[string, Thing]} */ (['move', dex.moves.get(m)])),
    ];
    for (const [what, thing] of checks) {
      if (!thing || !thing.exists) continue; // the validator or the simulator names those
      if (thing.gen > dex.gen || thing.isNonstandard === 'Future') {
        throw new Error(`the team for ${side}: the ${what} ${thing.name} is not in Gen ${dex.gen} ` +
          `(it first appears in Gen ${thing.gen}), so ${format.id} cannot use it`);
      }
    }
  }
}

/**
 * @param {PokemonSet} set
 * @param {string} side
 */
function gen1Set(set, side) {
  // Gen 1 has no items, abilities or natures, and one Special stat. Custom games do not check
  // this, and the pinned Showdown gives an empty ability the species' default (unpacking fills
  // it in), which then acts (Blaze, Volt Absorb): so every Gen 1 member plays with `No Ability`,
  // and the rest is refused.
  const who = `the team for ${side}: ${set.species || set.name}`;
  if (set.item) throw new Error(`${who} holds ${set.item}; Gen 1 has no items`);
  if (set.nature) throw new Error(`${who} has the nature ${set.nature}; Gen 1 has none`);
  for (const [what, stats] of [['EVs', set.evs], ['IVs', set.ivs]]) {
    if (stats && stats.spa !== stats.spd) throw new Error(`${who} has different Sp. Atk and Sp. Def ${what}; Gen 1 has one Special stat`);
  }
  set.ability = 'No Ability';
}

/**
 * @param {import('./messages').StartCommand} msg
 * @returns {string[]}
 */
function startCommands(msg) {
  // The simulator's input lines that start the battle a `start` op asks for.
  if (msg.inputlog) return msg.inputlog; // a replay or a fork: an input log (or a prefix of one)
  const format = Dex.formats.get(msg.format);
  if (!format.exists || format.effectType !== 'Format') throw new Error(`unknown format '${msg.format}'`);
  if (format.gameType && format.gameType !== 'singles') throw new Error(`format '${format.id}' is ${format.gameType}; pokeview plays singles`);
  const lines = [`>start ${JSON.stringify({formatid: format.id, seed: msg.seed})}`];
  for (const side of SIDES) {
    const spec = (msg.players && msg.players[side]) || {};
    /** @type {{name: string, team?: string, seed?: string}} */
    const options = {name: spec.name || (side === 'p1' ? 'Player 1' : 'Player 2')};
    const team = toTeam(spec.team, side, format);
    if (team) {
      const sets = /** @type {PokemonSet[]} */ (Teams.unpack(team)); // packed just above
      notFromLaterGens(format, sets, side);
      if (msg.validate !== false) {
        const problems = TeamValidator.get(format.id).validateTeam(Teams.unpack(team));
        if (problems && problems.length) throw new Error(`the team for ${side} is not valid in ${format.id}: ${problems.join('; ')}`);
      }
      options.team = team;
    } else if (!format.team) {
      throw new Error(`format '${format.id}' needs a team for each side`);
    } else if (spec.seed) {
      options.seed = spec.seed;
    }
    lines.push(`>player ${side} ${JSON.stringify(options)}`);
  }
  return lines;
}

module.exports = {startCommands};
