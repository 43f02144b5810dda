'use strict';
// Baseline: Showdown alone replaying input logs (no bridge, no Python).
//
//   node replay.js NODE_PROJECT_DIR
//
// Reads one JSON command a line on stdin and answers each with one JSON line on stdout:
//   {"warm": "LOGS.json"}                 replays those logs once: the JIT and Showdown's caches
//                                         of species, moves and items warm as a bridge host's do
//   {"time": "LOGS.json", "repeats": 3}   replays them once ("first": each game new to the
//                                         process, as a game pokeview plays is), then `repeats`
//                                         times more ("repeat": the same games again, as this
//                                         baseline was measured before 2026-12)
// A timing gives games, wall seconds and CPU seconds (every thread of the process, as /proc
// counts the bridge's) for each. The process stays up between commands, so that a benchmark
// times it right beside what it compares it with, round after round, without warming it again.
const path = require('path');
const readline = require('readline');
const {createRequire} = require('module');

const [nodeDir] = process.argv.slice(2);
const need = createRequire(path.join(nodeDir, 'package.json'));
const {BattleStream} = need('pokemon-showdown/dist/sim/battle-stream');
const read = (/** @type {string} */ f) => JSON.parse(require('fs').readFileSync(f, 'utf8'));

/** @param {string} log */
function replay(log) {
  const stream = new BattleStream({keepAlive: true});
  stream.pushMessage = () => {};
  stream._writeLines(log);
  stream.battle.sendUpdates();
  if (!stream.battle.ended) throw new Error('a replayed game did not end');
}

/**
 * @param {string[]} logs
 * @param {number} passes
 */
function timed(logs, passes) {
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

readline.createInterface({input: process.stdin}).on('line', (line) => {
  const command = JSON.parse(line);
  let answer;
  if (command.warm) {
    read(command.warm).forEach(replay);
    answer = {warmed: true};
  } else {
    const logs = read(command.time);
    answer = {first: timed(logs, 1), repeat: timed(logs, command.repeats)};
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
});
