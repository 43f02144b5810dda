'use strict';
// The bridge's Node CPU per game without Python, pipes or the load's noise on wall time: the
// bridge's own HostedBattle (from CHECKOUT) fed recorded input logs a choice at a time, as Python
// feeds it, CONCURRENCY games interleaved, every step written as the bridge writes it (to a sink);
// or, with MODE `replay`, what benchmarks/replay.js does with the same logs (Showdown alone); or,
// with MODE `autoplay`, each game of two random bots played through by the bridge itself from its
// start (sim/bridge/autoplay.js), which needs each game's seed: LOGS.json then holds
// {"seed": ..., "log": ...} objects (a plain input log is taken for the other modes).
//
//   node benchmarks/bridge_cpu.js CHECKOUT NODE_PROJECT_DIR LOGS.json bridge|replay|autoplay CONCURRENCY ROUNDS [WARM.json]
//
// Warms the JIT on two rounds of the logs first, or of WARM.json's other games
// (then ROUNDS=1 times each game's first pass, as the bridge plays each game once), then prints
// one JSON line: CPU seconds per game over ROUNDS rounds (process.cpuUsage: every thread).
const path = require('path');

const [checkout, nodeDir, file, mode = 'bridge', concurrency = '16', rounds = '3', warmFile] = process.argv.slice(2);
if (!checkout || !nodeDir || !file) {
  process.stderr.write('usage: node bridge_cpu.js CHECKOUT NODE_PROJECT_DIR LOGS.json [bridge|replay] [CONCURRENCY] [ROUNDS]\n');
  process.exit(2);
}
const packages = require(path.resolve(checkout, 'pokeview/sim/bridge/packages'));
packages.open(nodeDir);
const {HostedBattle} = require(path.resolve(checkout, 'pokeview/sim/bridge/battle'));
const output = require(path.resolve(checkout, 'pokeview/sim/bridge/output'));
const {BattleStream} = packages.need('pokemon-showdown/dist/sim/battle-stream');

/** @typedef {{seed: string, log: string[]}} Game */
/** @param {string} name  @returns {Game[]} */
function load(name) {
  /** @type {(string | {seed: string, log: string})[]} */
  const entries = JSON.parse(require('fs').readFileSync(name, 'utf8'));
  return entries.map((e) => (typeof e === 'string' ? {seed: '', log: e.split('\n')} : {seed: e.seed, log: e.log.split('\n')}));
}
const measured = load(file);
const warmWith = warmFile ? load(warmFile) : measured;
const starts = (/** @type {string} */ line) => line.startsWith('>start') || line.startsWith('>player');

// The steps are written as the bridge writes them, to nowhere: what they cost is the point.
let written = 0;
process.stdout.write = (/** @type {string} */ text) => {
  written += text.length;
  return true;
};

/** @param {Game[]} games */
function replayAll(games) {
  for (const {log} of games) {
    const stream = new BattleStream({keepAlive: true});
    stream.pushMessage = () => {};
    stream._writeLines(log.join('\n'));
    if (stream.battle) stream.battle.sendUpdates();
  }
}

let ids = 0;
/** @param {Game[]} games */
function bridgeAll(games) {
  const logs = games.map((g) => g.log);
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

/** @param {Game[]} games */
function autoplayAll(games) {
  const {answer, settle} = require(path.resolve(checkout, 'pokeview/sim/bridge/autoplay'));
  games.forEach(({seed, log}, n) => {
    const autoplay = {seed, sides: ['p1', 'p2'], turn_limit: 1000};
    const hosted = new HostedBattle(`b${ids++}`, {words: [], autoplay});
    answer(hosted, hosted.write(log.filter(starts)), true);
    settle(hosted); // played through now, as the bridge does on a later turn of its event loop
    // Where the bridge leaves a choice to Python (after a refusal), the recorded one is sent:
    // the next turn's line of the side still to choose (Showdown logs a turn's choices at once).
    const battle = hosted.stream.battle;
    while (battle && !battle.ended && battle.inputLog.length < log.length) {
      const next = log.slice(battle.inputLog.length, battle.inputLog.length + 2);
      const wanted = next.find((line) => !battle.getSide(/** @type {any} */ (line.slice(1, 3))).isChoiceDone());
      if (!wanted) break;
      answer(hosted, hosted.write([wanted]), false);
      settle(hosted);
    }
    if (!battle || battle.inputLog.join('\n') !== log.join('\n')) throw new Error(`game ${n} played otherwise than its log`);
  });
}

const run = mode === 'replay' ? replayAll : mode === 'autoplay' ? autoplayAll : bridgeAll;
run(warmWith);
run(warmWith);
const before = process.cpuUsage();
for (let r = 0; r < Number(rounds); r++) run(measured);
const used = process.cpuUsage(before);
const games = measured.length * Number(rounds);
const result = {mode, concurrency: Number(concurrency), games, cpu_s_per_game: (used.user + used.system) / 1e6 / games, written};
process.stderr.write(JSON.stringify(result) + '\n');
