'use strict';
// Baseline: Showdown alone replaying input logs (no bridge, no Python).
//
//   node replay.js NODE_PROJECT_DIR LOGS.json [ROUNDS] [WARM.json]
//
// Warms the JIT (and Showdown's caches of species, moves, items) on WARM.json's logs, or on
// LOGS.json's own when none is given, twice; then replays LOGS.json's once ("first": each game
// new to the process, as a game pokeview plays is), then ROUNDS more times ("repeat": the same
// games again, as this baseline was measured before 2026-12). Prints one JSON line: games, wall
// seconds and CPU seconds (every thread of the process, as /proc counts the bridge's) for each.
const path = require('path');
const {createRequire} = require('module');
const [nodeDir, file, rounds = '3', warmFile] = process.argv.slice(2);
const need = createRequire(path.join(nodeDir, 'package.json'));
const {BattleStream} = need('pokemon-showdown/dist/sim/battle-stream');
const read = (/** @type {string} */ f) => JSON.parse(require('fs').readFileSync(f, 'utf8'));
const logs = read(file);
const warm = warmFile ? read(warmFile) : logs;

/** @param {string} log */
function replay(log) {
  const stream = new BattleStream({keepAlive: true});
  stream.pushMessage = () => {};
  stream._writeLines(log);
  stream.battle.sendUpdates();
  if (!stream.battle.ended) throw new Error('a replayed game did not end');
}

/** @param {number} passes */
function timed(passes) {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let r = 0; r < passes; r++) logs.forEach(replay);
  const used = process.cpuUsage(cpu);
  return {
    games: logs.length * passes,
    seconds: Number(process.hrtime.bigint() - start) / 1e9,
    cpu_seconds: (used.user + used.system) / 1e6,
  };
}

for (let i = 0; i < 2; i++) warm.forEach(replay);
const first = timed(1);
const repeat = timed(Number(rounds));
process.stdout.write(JSON.stringify({first, repeat}) + '\n');
