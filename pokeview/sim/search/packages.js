'use strict';
// The pinned Showdown and @pkmn packages, loaded once from pokeview's data dir (the process's
// argument); every part of the search reads them from `lib`.
const path = require('path');
const {createRequire} = require('module');

const FORMAT = 'gen9randombattle';
const WIN = 100;

/**
 * The packages' parts the search uses, with the packages' own types (see tsconfig.json).
 * @typedef {{
 *   Battle: typeof import('pokemon-showdown/dist/sim/battle').Battle,
 *   Teams: typeof import('pokemon-showdown/dist/sim/teams').Teams,
 *   Dex: typeof import('pokemon-showdown/dist/sim/dex').Dex,
 *   ClientBattle: typeof import('@pkmn/client').Battle,
 *   Protocol: typeof import('@pkmn/protocol').Protocol,
 *   gens: import('@pkmn/data').Generations,
 *   dex: import('pokemon-showdown/dist/sim/dex').ModdedDex,
 * }} Lib
 */

/** @type {Lib} */
const lib = /** @type {Lib} */ ({}); // filled by load(), before any search

/** @param {string} modulesDir */
function load(modulesDir) {
  const need = createRequire(path.join(modulesDir, 'package.json'));
  const {Generations} = need('@pkmn/data');
  Object.assign(lib, {
    Battle: need('pokemon-showdown/dist/sim/battle').Battle,
    Teams: need('pokemon-showdown/dist/sim/teams').Teams,
    Dex: need('pokemon-showdown/dist/sim/dex').Dex,
    ClientBattle: need('@pkmn/client').Battle,
    Protocol: need('@pkmn/protocol').Protocol,
    gens: new Generations(need('@pkmn/dex').Dex),
  });
  lib.dex = lib.Dex.forFormat(lib.Dex.formats.get(FORMAT));
  return lib;
}

module.exports = {FORMAT, WIN, lib, load};
