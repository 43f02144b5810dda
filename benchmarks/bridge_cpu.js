'use strict';
// The bridge's Node CPU per game without Python, pipes or the load's noise on wall time: the
// bridge's own HostedBattle (from CHECKOUT) fed recorded input logs a choice at a time, as Python
// feeds it, CONCURRENCY games interleaved, every step written as the bridge writes it (to a sink);
// or, with MODE `replay`, what benchmarks/replay.js does with the same logs (Showdown alone).
//
//   node benchmarks/bridge_cpu.js CHECKOUT NODE_PROJECT_DIR LOGS.json bridge|replay CONCURRENCY ROUNDS
//
// Warms the JIT on two rounds of the logs first (as replay.js does), then prints one JSON line:
// CPU seconds per game over ROUNDS rounds (process.cpuUsage: every thread of the process).
const path = require('path');

const [checkout, nodeDir, file, mode = 'bridge', concurrency = '16', rounds = '3'] = process.argv.slice(2);
if (!checkout || !nodeDir || !file) {
  process.stderr.write('usage: node bridge_cpu.js CHECKOUT NODE_PROJECT_DIR LOGS.json [bridge|replay] [CONCURRENCY] [ROUNDS]\n');
  process.exit(2);
}
const packages = require(path.resolve(checkout, 'pokeview/sim/bridge/packages'));
packages.open(nodeDir);
const {HostedBattle} = require(path.resolve(checkout, 'pokeview/sim/bridge/battle'));
const output = require(path.resolve(checkout, 'pokeview/sim/bridge/output'));
const {BattleStream} = packages.need('pokemon-showdown/dist/sim/battle-stream');

/** @type {string[][]} */
const logs = JSON.parse(require('fs').readFileSync(file, 'utf8')).map((/** @type {string} */ log) => log.split('\n'));
const starts = (/** @type {string} */ line) => line.startsWith('>start') || line.startsWith('>player');

// The steps are written as the bridge writes them, to nowhere: what they cost is the point.
let written = 0;
process.stdout.write = (/** @type {string} */ text) => {
  written += text.length;
  return true;
};

function replayAll() {
  for (const log of logs) {
    const stream = new BattleStream({keepAlive: true});
    stream.pushMessage = () => {};
    stream._writeLines(log.join('\n'));
    if (stream.battle) stream.battle.sendUpdates();
  }
}

let ids = 0;
function bridgeAll() {
  // Each game's start, then its choices one at a time, round robin over the games in play.
  let next = 0;
  /** @type {{hosted: any, choices: string[], at: number}[]} */
  const playing = [];
  const open = () => {
    const log = logs[next++];
    const hosted = new HostedBattle(`b${ids++}`, {words: []}); // a bot game: no words while it plays
    output.outStep(hosted.write(log.filter(starts)));
    playing.push({hosted, choices: log.filter((line) => !starts(line)), at: 0});
  };
  while (playing.length < Number(concurrency) && next < logs.length) open();
  while (playing.length) {
    for (let k = 0; k < playing.length; k++) {
      const game = playing[k];
      const step = game.hosted.write([game.choices[game.at++]]);
      if (Object.keys(step.sides).length || step.spectator.length || step.input.length || step.end) output.outStep(step);
      if (game.at >= game.choices.length) {
        playing.splice(k--, 1);
        if (next < logs.length) open();
      }
    }
    output.flush();
  }
}

const run = mode === 'replay' ? replayAll : bridgeAll;
run();
run();
const before = process.cpuUsage();
for (let r = 0; r < Number(rounds); r++) run();
const used = process.cpuUsage(before);
const games = logs.length * Number(rounds);
const result = {mode, concurrency: Number(concurrency), games, cpu_s_per_game: (used.user + used.system) / 1e6 / games, written};
process.stderr.write(JSON.stringify(result) + '\n');
