'use strict';
// snapshot.js's details for the board (issue 31), read from a side's @pkmn/client battle fed
// protocol lines: volatiles with their counts, items known or lost, PP seen, turns left.
const test = require('node:test');
const assert = require('node:assert/strict');
const {showdownDir} = require('./showdown');

require('../../pokeview/sim/bridge/packages').open(showdownDir());
const {SideWords} = require('../../pokeview/sim/bridge/words');
const {publicSnapshot} = require('../../pokeview/sim/bridge/snapshot');

const START = [
  '|player|p1|Alice|', '|player|p2|Bob|', '|teamsize|p1|6', '|teamsize|p2|6', '|gen|9',
  '|tier|[Gen 9] Random Battle', '|start',
  '|switch|p1a: Iron Valiant|Iron Valiant, L80|100/100',
  '|switch|p2a: Heatran|Heatran, L80, M|100/100',
  '|turn|1',
];

function stateAfter(lines) {
  const words = new SideWords('p1');
  words.render([...START, ...lines]);
  return publicSnapshot(words.battle, 'p1');
}

test('volatiles: names, the Perish count, the stat Quark Drive raises, a type change', () => {
  const state = stateAfter([
    '|move|p2a: Heatran|Leech Seed|p1a: Iron Valiant', '|-start|p1a: Iron Valiant|move: Leech Seed',
    '|-start|p1a: Iron Valiant|quarkdrivespe', '|-start|p1a: Iron Valiant|perish3',
    '|-start|p2a: Heatran|typechange|Water|[from] move: Soak',
    '|-start|p2a: Heatran|Substitute',
  ]);
  const valiant = state.team.find((m) => m.active);
  const byId = Object.fromEntries(valiant.volatiles.map((v) => [v.id, v]));
  assert.deepEqual(byId.leechseed, {id: 'leechseed', name: 'Leech Seed'});
  assert.deepEqual(byId.quarkdrive, {id: 'quarkdrive', name: 'Quark Drive', stat: 'spe'});
  assert.deepEqual(byId.perishsong, {id: 'perishsong', name: 'Perish Song', level: 3});
  const heatran = state.foeTeam.find((m) => m.active);
  assert.deepEqual(heatran.volatiles.map((v) => [v.name, v.type]), [
    ['Type change', 'Water'], ['Substitute', undefined],
  ]);
  assert.deepEqual(heatran.moveSlots, [{name: 'Leech Seed', ppUsed: 1}]);
});

test('an item: unknown (empty), revealed, or known lost', () => {
  const before = stateAfter([]).foeTeam[0];
  assert.equal(before.item, '');
  assert.equal(before.lastItem, undefined); // not known: nothing says it has none
  const revealed = stateAfter(['|-item|p2a: Heatran|Air Balloon']).foeTeam[0];
  assert.equal(revealed.item, 'Air Balloon');
  const lost = stateAfter([
    '|-item|p2a: Heatran|Air Balloon', '|-enditem|p2a: Heatran|Air Balloon',
  ]).foeTeam[0];
  assert.deepEqual([lost.item, lost.lastItem, lost.lastItemEffect], ['', 'Air Balloon', 'popped']);
});

test('the field: weather and screens with their turns left, hazards with their layers', () => {
  const state = stateAfter([
    '|-weather|RainDance', '|-sidestart|p1: Alice|Reflect', '|-sidestart|p2: Bob|Spikes',
    '|-sidestart|p2: Bob|Spikes', '|-fieldstart|move: Trick Room',
    '|', '|-weather|RainDance|[upkeep]', '|upkeep', '|turn|2',
  ]);
  assert.equal(state.field.weather, 'Rain');
  assert.deepEqual(state.field.weatherTurns, {name: 'Rain', minTurns: 4, maxTurns: 7});
  assert.deepEqual(state.field.mine, [{name: 'Reflect', level: 1, minTurns: 4, maxTurns: 7}]);
  assert.deepEqual(state.field.theirs, [{name: 'Spikes', level: 2}]);
  assert.deepEqual(state.field.pseudoWeather, ['Trick Room']);
  assert.deepEqual(state.field.pseudoWeatherTurns, [{name: 'Trick Room', minTurns: 4}]);
});
