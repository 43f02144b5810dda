'use strict';
// The bridge's modules that need no Showdown: protocol words, differences, the JSON-lines reader.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const {spawnSync} = require('node:child_process');
const {SIDES, isNoise} = require('../../pokeview/sim/bridge/protocol');
const {differences} = require('../../pokeview/sim/bridge/differences');

test('protocol: the sides, and the lines that are noise', () => {
  assert.deepEqual(SIDES, ['p1', 'p2']);
  assert.equal(isNoise('|t:|1700000000'), true);
  assert.equal(isNoise('|debug|x'), true);
  assert.equal(isNoise('|move|p1a: Pikachu|Thunderbolt|p2a: Mew'), false);
});

test('differences: a changed value, a deleted key, nothing', () => {
  assert.deepEqual(differences({a: 1, b: [1, 2]}, {a: 2, b: [1, 2]}), [[['a'], 2]]);
  assert.deepEqual(differences({a: 1, c: 3}, {a: 1}), [[['c']]]);
  assert.deepEqual(differences({a: {b: [1, 2]}}, {a: {b: [1, 2]}}), []);
});

test('differences: a nested change has its path', () => {
  const ops = differences({team: [{ident: 'p1: A', hp: 10}]}, {team: [{ident: 'p1: A', hp: 7}]});
  assert.deepEqual(ops, [[['team', 0, 'hp'], 7]]);
});

test('differences: each operation keeps its own path (the walk reuses one)', () => {
  const before = {a: {x: 1, y: [1, 2]}, team: [{ident: 'p1: A', hp: 1}, {ident: 'p1: B', hp: 2}]};
  const after = {a: {x: 2, y: [1, 3]}, team: [{ident: 'p1: B', hp: 2}, {ident: 'p1: C', hp: 5}], b: 4};
  assert.deepEqual(differences(before, after), [
    [['a', 'x'], 2], [['a', 'y', 1], 3],
    [['team'], 'order', [1, null]], [['team', 1], {ident: 'p1: C', hp: 5}],
    [['b'], 4],
  ]);
  const start = ['s'];
  differences({k: 1}, {k: 2}, start);
  assert.deepEqual(start, ['s'], "the caller's path is left as it was");
});

test('differences: a key named constructor, absent or present, is not what objects inherit', () => {
  assert.deepEqual(differences({}, JSON.parse('{"constructor": 1}')), [[['constructor'], 1]]);
  assert.deepEqual(differences(JSON.parse('{"constructor": 1}'), {}), [[['constructor']]]);
  assert.deepEqual(differences({a: 1}, {a: 1}), []);
});

test("differences: a key named __proto__ in JSON is a key like any other", () => {
  const before = JSON.parse('{"__proto__": 1}');
  const after = JSON.parse('{"__proto__": 2}');
  assert.deepEqual(differences(before, after), [[['__proto__'], 2]]);
});

test('lines: one message a line; a bad line goes to fail and the next still arrives', () => {
  const lines = path.join(__dirname, '../../pokeview/sim/bridge/lines.js');
  const program = `require(${JSON.stringify(lines)}).readMessages(
    (msg) => { if (msg.boom) throw new Error('boom'); console.log('got ' + msg.id); },
    (err, msg) => console.log('fail ' + (msg ? msg.id : 'unparsed') + ' ' + err.message.split('\\n')[0].slice(0, 12)));`;
  const run = spawnSync(process.execPath, ['-e', program], {input: '{"id": 1}\nnot json\n\n{"id": 2, "boom": true}\n{"id": 3}', encoding: 'utf8'});
  assert.equal(run.status, 0);
  const shown = run.stdout.trim().split('\n');
  assert.equal(shown[0], 'got 1');
  assert.match(shown[1], /^fail unparsed /);
  assert.equal(shown[2], 'fail 2 boom');
  assert.equal(shown.length, 3); // the last line has no newline yet: not a message
});
