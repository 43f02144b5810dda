'use strict';
// The pinned Showdown and @pkmn packages live in pokeview's data directory, not beside this
// file: the entry opens that folder once, before loading the modules that need the packages.
const path = require('path');
const {createRequire} = require('module');

let required = null;

function open(modulesDir) {
  required = createRequire(path.join(modulesDir, 'package.json'));
}

function need(name) {
  if (!required) throw new Error(`need('${name}') before packages.open(NODE_PROJECT_DIR)`);
  return required(name);
}

module.exports = {open, need};
