'use strict';
// A game of two random bots played through with nothing sent per step (whole.js) is the game the
// bridge plays step by step (autoplay.js): the same input log, spectator log and decisions.
const test = require('node:test');
const assert = require('node:assert/strict');
const {showdownDir} = require('./showdown');
const packages = require('../../pokeview/sim/bridge/packages');

packages.open(showdownDir());
const {HostedBattle} = require('../../pokeview/sim/bridge/battle');
const {startCommands} = require('../../pokeview/sim/bridge/start');
const {playWhole} = require('../../pokeview/sim/bridge/whole');

/**
 * The game step by step, each step's choices made as autoplay.js makes them.
 * @param {string[]} start
 * @param {{seed: string, sides: string[], turn_limit: number}} spec
 */
function stepByStep(start, spec) {
  const hosted = new HostedBattle('b', {words: [], autoplay: spec});
  /** @type {[any, number][]} */
  const queue = [[hosted.write(start), hosted.turn()]];
  /** @type {string[]} */
  const spectator = [];
  let python = false;
  let chosen = 0;
  while (queue.length && !python) {
    const [step, turn] = /** @type {[any, number]} */ (queue.shift());
    spectator.push(...step.spectator);
    const made = hosted.autoplay.choices(step, turn, python);
    python = made.python;
    chosen += made.made.length;
    for (const [side, choice] of made.made) queue.push([hosted.write([`>${side} ${choice}`]), hosted.turn()]);
  }
  return {input: hosted.stream.battle.inputLog, spectator, chosen, python, turns: hosted.turn()};
}

test('playWhole: the same game as step by step, or stopped where Python would be asked but at a refusal', () => {
  let whole = 0;
  let stopped = 0;
  let retried = 0;
  for (const format of ['gen9randombattle', 'gen4randombattle', 'gen1randombattle']) {
    for (let n = 0; n < 8; n++) {
      const players = {p1: {seed: `sodium,${String(n).padStart(32, '1')}`}, p2: {seed: `sodium,${String(n).padStart(32, '2')}`}};
      const start = startCommands({format, seed: `sodium,${String(n).padStart(32, '0')}`, players});
      const spec = {seed: `game${n}`, sides: ['p1', 'p2'], turn_limit: n === 7 ? 4 : 1000};
      const played = playWhole('b', start, spec);
      const steps = stepByStep(start, spec);
      if (steps.python) {
        // Step by step, Python is asked here: the turn limit, a request the random bot's port
        // does not read (whole.js stops there too), or a refused choice, which whole.js tries
        // again itself: the same game up to there (and to its end: test_played_whole.py).
        if (played.end) {
          assert.deepEqual(played.input.slice(0, steps.input.length), steps.input, `${format} ${n}`);
          retried++;
        } else {
          assert.ok(played.stopped && !played.stopped.includes('refused'), `${format} ${n}: ${played.stopped}`);
          stopped++;
        }
        continue;
      }
      assert.deepEqual(played.input, steps.input, `${format} ${n}: another input log`);
      assert.deepEqual(played.spectator, steps.spectator, `${format} ${n}: another spectator log`);
      assert.equal(played.decisions.length, steps.chosen);
      assert.equal(played.end && played.end.turns, steps.turns);
      whole++;
    }
  }
  assert.ok(whole >= 12 && stopped >= 3 && retried >= 1, `${whole} whole, ${stopped} stopped, ${retried} retried`);
});
