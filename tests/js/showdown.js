'use strict';
// Where the pinned Showdown is installed, found as pokeview/paths.py finds it (`make test` passes
// POKEVIEW_SHOWDOWN_DIR from there; the fallbacks are its defaults on Linux).
const os = require('node:os');
const path = require('node:path');

function showdownDir() {
  if (process.env.POKEVIEW_SHOWDOWN_DIR) return process.env.POKEVIEW_SHOWDOWN_DIR;
  if (process.env.POKEVIEW_HOME) return path.join(process.env.POKEVIEW_HOME, 'data', 'showdown');
  const data = process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(data, 'pokeview', 'showdown');
}

module.exports = {showdownDir};
