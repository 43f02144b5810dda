'use strict';
// Baseline: Showdown alone replaying input logs (no bridge, no Python). Reads a JSON list of
// input logs, warms the JIT on them, then replays them `rounds` times and prints games/second.
const path = require('path');
const {createRequire} = require('module');
const [nodeDir, file, rounds = '3'] = process.argv.slice(2);
const need = createRequire(path.join(nodeDir, 'package.json'));
const {BattleStream} = need('pokemon-showdown/dist/sim/battle-stream');
const logs = JSON.parse(require('fs').readFileSync(file, 'utf8'));

function replay(log) {
  const stream = new BattleStream({keepAlive: true});
  stream.pushMessage = () => {};
  stream._writeLines(log);
  stream.battle.sendUpdates();
  if (!stream.battle.ended) throw new Error('a replayed game did not end');
}
for (let i = 0; i < 2; i++) logs.forEach(replay); // warm-up
const start = process.hrtime.bigint();
for (let r = 0; r < Number(rounds); r++) logs.forEach(replay);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
process.stdout.write(JSON.stringify({games: logs.length * Number(rounds), seconds}) + '\n');
