'use strict';
// The search's pure parts: seeds, the matrix solver, the look-ahead's weighting, budgets.
const test = require('node:test');
const assert = require('node:assert/strict');
const {mix, prngSeed} = require('../../pokeview/sim/search/prng');
const {solve} = require('../../pokeview/sim/search/matrix');
const {lambdaReturn} = require('../../pokeview/sim/search/evaluate');
const {Budget} = require('../../pokeview/sim/search/budget');

test('mix is a fixed 32-bit hash: the same parts give the same seed in every process', () => {
  assert.equal(mix('a', 1), 1488212381);
  assert.equal(mix('a', 1), mix('a', '1')); // parts are hashed as text
  assert.notEqual(mix('a', 1), mix('a1'));  // but parts stay separate
  assert.notEqual(mix('a', 1), mix(1, 'a'));
});

test("prngSeed gives Showdown's four 16-bit numbers, pinned", () => {
  const seed = prngSeed('s1', 0, 'node');
  assert.deepEqual(seed, [4856, 52649, 1091, 61360]);
  for (const part of prngSeed('anything', 42)) assert.ok(Number.isInteger(part) && part >= 0 && part < 0x10000);
  assert.notDeepEqual(prngSeed('s1', 1, 'node'), seed);
});

const close = (actual, expected, within = 0.05) =>
  actual.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) <= within, `${actual} is not near ${expected}`));

test('solve: matching pennies is a half-half mix for both sides', () => {
  const {p, q} = solve([[1, -1], [-1, 1]]);
  close(p, [0.5, 0.5]);
  close(q, [0.5, 0.5]);
});

test('solve: rock-paper-scissors is a third each', () => {
  const {p, q} = solve([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], 2000);
  close(p, [1 / 3, 1 / 3, 1 / 3]);
  close(q, [1 / 3, 1 / 3, 1 / 3]);
});

test('solve: a dominated row and column are left out', () => {
  // Row 0 beats row 1 against every column; column 1 costs the foe less against every row.
  const {p, q} = solve([[3, 1], [2, 0]]);
  close(p, [1, 0], 0.02);
  close(q, [0, 1], 0.02);
  assert.ok(Math.abs(p.reduce((a, b) => a + b) - 1) < 1e-9);
});

test('solve is deterministic', () => {
  const matrix = [[0.3, -2, 1], [1.5, 0, -0.7]];
  assert.deepEqual(solve(matrix), solve(matrix));
});

test('lambdaReturn: depth 1 is its value; later turns share the weight', () => {
  assert.equal(lambdaReturn([7]), 7);
  assert.equal(lambdaReturn([1, 2], 0.5), 0.5 * 1 + 0.5 * 2);
  assert.ok(Math.abs(lambdaReturn([1, 2, 4], 0.5) - (0.5 * 1 + 0.25 * 2 + 0.25 * 4)) < 1e-12);
  assert.ok(Math.abs(lambdaReturn([3, 3, 3, 3]) - 3) < 1e-12); // the weights sum to 1
});

test('Budget by nodes: spent after its nodes; a share is a part of what is left and counts upward', () => {
  const budget = new Budget({nodes: 10});
  assert.equal(budget.spent(), false);
  for (let n = 0; n < 4; n++) budget.count();
  const share = budget.share(3);
  assert.equal(share.maxNodes, 2);
  share.count();
  share.count();
  assert.equal(share.spent(), true);
  assert.equal(budget.nodes, 6);
  assert.equal(budget.spent(), false);
  for (let n = 0; n < 4; n++) budget.count();
  assert.equal(budget.spent(), true);
});

test('Budget without a limit is never spent; a time budget of 0.001 ms is spent at once', () => {
  assert.equal(new Budget({}).spent(), false);
  assert.equal(new Budget({ms: 0.001}).spent(), true);
  assert.equal(new Budget({cpu: 0.001}).kind, 'cpu');
});
