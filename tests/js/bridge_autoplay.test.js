'use strict';
// The bridge's own process: games it plays through by itself (autoplay.js) wait their turn, one a
// turn of its event loop, so another battle's command is answered before they are all played.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const {spawn} = require('node:child_process');
const {showdownDir} = require('./showdown');

const BRIDGE = path.join(__dirname, '../../pokeview/sim/bridge.js');

/**
 * @param {string} battle
 * @param {number} n
 * @param {boolean} autoplay
 */
function start(battle, n, autoplay) {
  const players = {p1: {seed: `sodium,${String(n).padStart(32, '1')}`}, p2: {seed: `sodium,${String(n).padStart(32, '2')}`}};
  return JSON.stringify({
    op: 'start', battle, format: 'gen9randombattle', seed: `sodium,${String(n).padStart(32, '0')}`, players, words: [],
    ...(autoplay ? {autoplay: {seed: `game${n}`, sides: ['p1', 'p2'], turn_limit: 1000}} : {}),
  });
}

test("bridge: a battle started beside games played through is answered before they end", async () => {
  const child = spawn(process.execPath, [BRIDGE, showdownDir()], {stdio: ['pipe', 'pipe', 'inherit']});
  /** @type {any[]} */
  const seen = [];
  let buffer = '';
  const done = new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        seen.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
      const ended = seen.filter((m) => m.type === 'step' && m.end && m.battle.startsWith('auto')).length;
      if (ended === 3 && seen.some((m) => m.battle === 'asked')) resolve(null);
    });
  });
  // One write: three games the bridge plays by itself, then one that waits on its players.
  child.stdin.write([start('auto1', 1, true), start('auto2', 2, true), start('auto3', 3, true), start('asked', 4, false)].join('\n') + '\n');
  await done;
  child.stdin.end();
  const at = (/** @type {(m: any) => boolean} */ found) => seen.findIndex(found);
  const asked = at((m) => m.battle === 'asked');
  const firstEnd = at((m) => m.type === 'step' && m.end);
  assert.ok(asked >= 0 && firstEnd >= 0);
  assert.ok(asked < firstEnd, `the waiting battle's first step came after a whole game (${asked} > ${firstEnd})`);
  // Each game played through, its steps in order, its choices marked as the bridge's.
  for (const battle of ['auto1', 'auto2', 'auto3']) {
    const steps = seen.filter((m) => m.battle === battle);
    assert.ok(steps.length > 20 && steps.at(-1).end, `${battle} played to its end`);
    assert.ok(steps.some((m) => m.sides.p1 && m.sides.p1.chosen));
  }
});
