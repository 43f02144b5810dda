'use strict';
// The pinned Showdown and @pkmn packages live in pokeview's data directory, not beside this
// file: the entry opens that folder once, before loading the modules that need the packages.
const path = require('path');
const {createRequire} = require('module');

/**
 * The modules the bridge loads, by the name it asks for: their types are the packages' own
 * (tsconfig.json maps the names into the installed data dir).
 * @typedef {{
 *   'pokemon-showdown/package.json': {version: string},
 *   'pokemon-showdown/dist/sim/battle': typeof import('pokemon-showdown/dist/sim/battle'),
 *   'pokemon-showdown/dist/sim/battle-stream': typeof import('pokemon-showdown/dist/sim/battle-stream'),
 *   'pokemon-showdown/dist/sim/dex': typeof import('pokemon-showdown/dist/sim/dex'),
 *   'pokemon-showdown/dist/sim/teams': typeof import('pokemon-showdown/dist/sim/teams'),
 *   'pokemon-showdown/dist/sim/team-validator': typeof import('pokemon-showdown/dist/sim/team-validator'),
 *   '@pkmn/client': typeof import('@pkmn/client'),
 *   '@pkmn/data': typeof import('@pkmn/data'),
 *   '@pkmn/dex': typeof import('@pkmn/dex'),
 *   '@pkmn/protocol': typeof import('@pkmn/protocol'),
 *   '@pkmn/view': typeof import('@pkmn/view'),
 * }} Packages
 */

/** @type {NodeJS.Require | null} */
let required = null;

/** @param {string} modulesDir */
function open(modulesDir) {
  required = createRequire(path.join(modulesDir, 'package.json'));
}

/**
 * @template {keyof Packages} N
 * @param {N} name
 * @returns {Packages[N]}
 */
function need(name) {
  if (!required) throw new Error(`need('${name}') before packages.open(NODE_PROJECT_DIR)`);
  return required(name);
}

module.exports = {open, need};
