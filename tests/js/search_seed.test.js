'use strict';
// The search's seeds: four numbers, which the pinned Showdown still takes though its types name
// only its string forms (search/prng.js, showdownSeed).
const test = require('node:test');
const assert = require('node:assert/strict');
const {showdownDir} = require('./showdown');
const {load, lib} = require('../../pokeview/sim/search/packages');
const {prngSeed, showdownSeed} = require('../../pokeview/sim/search/prng');

load(showdownDir());

test('prngSeed: four 16-bit numbers, the same for the same parts', () => {
  const seed = prngSeed('game', 3, 'node');
  assert.equal(seed.length, 4);
  assert.ok(seed.every((n) => Number.isInteger(n) && n >= 0 && n < 65536));
  assert.deepEqual(prngSeed('game', 3, 'node'), seed);
  assert.notDeepEqual(prngSeed('game', 4, 'node'), seed);
});

test('showdownSeed: Showdown plays four numbers as their string form', () => {
  const seed = prngSeed('same battle');
  const battle = (s) => {
    const teams = [1, 2].map((n) => lib.Teams.generate('gen9randombattle', {seed: showdownSeed([n, 7, 7, 7])}));
    const b = new lib.Battle({formatid: 'gen9randombattle', seed: s, p1: {name: 'a', team: teams[0]}, p2: {name: 'b', team: teams[1]}});
    b.choose('p1', 'move 1');
    b.choose('p2', 'move 1');
    return b.log.filter((line) => !line.startsWith('|t:|')).join('\n');
  };
  assert.equal(battle(showdownSeed(seed)), battle(/** @type {any} */ (seed.join(','))));
});
