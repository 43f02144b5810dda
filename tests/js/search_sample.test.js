'use strict';
// The search's sampling of the foe's unseen parts, on the pinned Showdown's own generator.
const test = require('node:test');
const assert = require('node:assert/strict');
const {showdownDir} = require('./showdown');
const {load} = require('../../pokeview/sim/search/packages');
const {readView, foeTeam} = require('../../pokeview/sim/search/sample');

load(showdownDir());

const SEEN = [
  '|player|p2|foe|1|',
  '|switch|p2a: Pikachu|Pikachu, L92, M|100/100',
  '|move|p2a: Pikachu|Thunderbolt|p1a: Mew',
];

test('foeTeam keeps what was seen and samples the rest: six Pokémon, no species twice', () => {
  const team = foeTeam(readView(SEEN), 'p2', ['seed', 1]);
  assert.equal(team.length, 6);
  const [pikachu] = team;
  assert.equal(pikachu.set.species, 'Pikachu');
  assert.equal(pikachu.set.level, 92);
  assert.equal(pikachu.set.gender, 'M');
  assert.ok(pikachu.set.moves.includes('thunderbolt'), pikachu.set.moves);
  assert.ok(pikachu.set.moves.length <= 4);
  assert.equal(new Set(team.map((m) => m.set.species)).size, 6);
  for (const mon of team) assert.ok(mon.set.ability && mon.set.item !== undefined && mon.set.teraType, mon.set.species);
});

test('foeTeam is seeded: the same seed parts give the same team, others another bench', () => {
  const view = readView(SEEN);
  const once = foeTeam(view, 'p2', ['seed', 1]);
  assert.deepEqual(foeTeam(readView(SEEN), 'p2', ['seed', 1]), once);
  const other = foeTeam(view, 'p2', ['seed', 2]);
  assert.equal(other[0].set.species, 'Pikachu');
  assert.notDeepEqual(other.slice(1).map((m) => m.set.species), once.slice(1).map((m) => m.set.species));
});
