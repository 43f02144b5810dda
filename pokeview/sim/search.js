'use strict';
// pokeview's search player, run in its own Node process next to the bridge (JSON lines on
// stdin/stdout, one search at a time; see pokeview/sim/search_client.py).
//
// Fair by construction: a search is given one side's request and the protocol lines that side
// saw, and nothing else. From them it builds determinized battles: its own team exactly (the
// request), the foe's revealed Pokémon, moves, items, abilities and tera types as seen, and
// everything unseen sampled with a seeded PRNG from the pinned Showdown's own gen9 random-battle
// generator (its sets data and item logic). Each determinization is a real Showdown Battle; every
// joint action (own action x foe action, the foe's switches included) is played in it, and the
// turns' outcomes form a matrix game solved for a mixed equilibrium.
//
// The lessons of PokéBench's expectimax: the foe's hidden bench is in the simulated battle (sampled
// Pokémon at full HP), so a KO is a won game only when nothing is left behind it; and the foe may
// switch in the search.
//
// The parts, by concern, are in search/: packages (the pinned Showdown), prng (seeds), sample (what
// the side saw, and the unseen sampled), determinize (a real Battle from it), evaluate (playing a
// node out and scoring it), matrix (the equilibrium solver), budget (nodes, wall and CPU time) and
// decide (one decision); this file is the process's I/O.
const {out} = require('./bridge/output');
const {readMessages} = require('./bridge/lines');
const {FORMAT, load} = require('./search/packages');
const {prngSeed} = require('./search/prng');
const {readView} = require('./search/sample');
const {build} = require('./search/determinize');
const {playout, playNode, LAMBDA} = require('./search/evaluate');
const {search, warmUp, determinizations, foeChoices, ownRows} = require('./search/decide');

module.exports = {
  load, search, readView, warmUp, FORMAT,
  // For tests: one node of a query's determinization.
  determinizations, build, foeChoices, ownRows, prngSeed, playout, playNode, LAMBDA,
};

if (require.main === module) {
  const modulesDir = process.argv[2];
  if (!modulesDir) {
    process.stderr.write('usage: node search.js NODE_PROJECT_DIR\n');
    process.exit(2);
  }
  load(modulesDir);
  warmUp();
  readMessages(
    (msg) => out({id: msg.id, result: search(msg)}),
    (err, msg) => out({id: msg ? msg.id : null, error: String((err instanceof Error && err.stack) || err)}),
  );
  out({type: 'ready', pid: process.pid});
}
