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
