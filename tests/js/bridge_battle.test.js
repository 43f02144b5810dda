'use strict';
// One hosted battle on the pinned Showdown: what each of its options changes in a step.
const test = require('node:test');
const assert = require('node:assert/strict');
const {showdownDir} = require('./showdown');
const packages = require('../../pokeview/sim/bridge/packages');

packages.open(showdownDir());
const {HostedBattle} = require('../../pokeview/sim/bridge/battle');
const {startCommands} = require('../../pokeview/sim/bridge/start');

const START = startCommands({format: 'gen9randombattle', seed: [1, 2, 3, 4]});

function firstTwoSteps(options) {
  const hosted = new HostedBattle('b', options);
  const first = hosted.write(START);
  const second = hosted.write(['>p1 move 1', '>p2 move 1']);
  return [first, second];
}

test('HostedBattle: by default each side gets its words, request and state, then differences', () => {
  const [first, second] = firstTwoSteps({});
  assert.deepEqual(Object.keys(first.sides).sort(), ['p1', 'p2']);
  assert.ok(first.sides.p1.state && first.sides.p1.request, 'the first step is whole');
  assert.ok(second.sides.p1.stateDelta && second.sides.p1.state === null, 'the next is differences');
  assert.ok(second.sides.p1.requestDelta);
  const switches = first.spectator.filter((line) => line.startsWith('|switch|'));
  assert.ok(switches.length && switches.every((line) => line.endsWith('/100')), 'the spectator sees percentages');
});

test('HostedBattle: quiet sends no sides, only the spectator and input logs', () => {
  const [first] = firstTwoSteps({quiet: true});
  assert.deepEqual(first.sides, {});
  assert.ok(first.spectator.length && first.input.length);
});

test("HostedBattle: omniscient gives the spectator log with both sides' exact HP", () => {
  const [first] = firstTwoSteps({omniscient: true, quiet: true});
  assert.ok(first.spectator.some((line) => /^\|switch\|.*\|\d+\/\d+$/.test(line) && !line.endsWith('/100')));
});

test('HostedBattle: whole sends every request and state whole', () => {
  const [, second] = firstTwoSteps({whole: true});
  assert.ok(second.sides.p1.state && !second.sides.p1.stateDelta && !second.sides.p1.requestDelta);
});

test('HostedBattle: fromInputLog sends the first step whole and keeps nothing from it', () => {
  const [, second] = firstTwoSteps({fromInputLog: true});
  assert.ok(second.sides.p1.state && !second.sides.p1.stateDelta, 'the second step is whole too');
});

/**
 * A request's differences applied to the one before, as Python does (pokeview/store/differences.py).
 * @param {any} value
 * @param {any[]} ops
 */
function applied(value, ops) {
  const root = {value};
  for (const [path, ...rest] of ops) {
    /** @type {any} */
    let parent = root;
    /** @type {string | number} */
    let key = 'value';
    for (const step of path) [parent, key] = [parent[key], step];
    if (!rest.length) delete parent[key];
    else if (rest.length === 1) parent[key] = rest[0];
    else if (rest[0] === 'keys') parent[key] = Object.fromEntries(rest[1].map((/** @type {string} */ k) => [k, parent[key][k]]));
    else parent[key] = rest[1].map((/** @type {number | null} */ i) => (i === null ? null : parent[key][i]));
  }
  return root.value;
}

test("HostedBattle: each request's differences rebuild it, also when Showdown refuses a choice and sends its request again", () => {
  // Each side tries choices in turn until one is taken: some are refused as invalid, and some
  // (a switch while trapped, a move it learns is disabled) as unavailable, with the request sent
  // again changed. The differences, through JSON as on the pipe, must rebuild every request.
  const moves = ['move 4', 'move 2', 'move 1', 'move 3'];
  const switches = ['switch 2', 'switch 3', 'switch 6', 'switch 4', 'switch 5'];
  let requests = 0;
  let unavailable = 0;
  for (let seed = 1; seed <= 6; seed++) {
    const hosted = new HostedBattle('b', {words: []});
    /** @type {{[side: string]: any}} */
    const last = {};
    /** @param {import('../../pokeview/sim/bridge/messages').Step} step */
    const check = (step) => {
      for (const [side, update] of Object.entries(step.sides)) {
        if (update.error && update.error.startsWith('[Unavailable choice]')) unavailable++;
        if (!update.request) continue;
        requests++;
        if (last[side]) {
          const ops = JSON.parse(JSON.stringify(update.requestDelta || []));
          assert.equal(JSON.stringify(applied(last[side], ops)), update.request);
        }
        last[side] = JSON.parse(update.request);
      }
      return step;
    };
    check(hosted.write(startCommands({format: 'gen9randombattle', seed: [seed, 2, 3, 4]})));
    for (let n = 0; n < 400 && !hosted.ended; n++) {
      for (const side of ['p1', 'p2']) {
        if (!last[side] || last[side].wait) continue;
        // Switches first one turn in three (more would never end a game), moves first otherwise.
        for (const choice of n % 3 ? [...moves, ...switches, 'default'] : [...switches, ...moves, 'default']) {
          const step = check(hosted.write([`>${side} ${choice}`]));
          if (!step.sides[side] || !step.sides[side].error) break;
        }
      }
    }
    assert.ok(hosted.ended, `game ${seed} ended`);
  }
  assert.ok(requests > 100 && unavailable > 0, `${requests} requests, ${unavailable} sent again`);
});
