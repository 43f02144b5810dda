'use strict';
// The bridge's copy of poke-env's view of a side (poke_env_view.js), on hand-made lines: what
// it keeps as poke-env does, quirks included, and where it gives up (Unread). Its choices are
// checked against poke-env's own in tests/integration/test_baseline_bots_whole.py.
const test = require('node:test');
const assert = require('node:assert/strict');
const {View, Unread} = require('../../pokeview/sim/bridge/poke_env_view');

const START = [
  '|switch|p1a: Palafin|Palafin, L80, M|100/100',
  '|split|p2',
  '|switch|p2a: Gholdengo|Gholdengo, L80|251/251',
  '|switch|p2a: Gholdengo|Gholdengo, L80|100/100',
];

test('a side reads its own secret lines and the other side\'s public ones', () => {
  const view = new View('p1');
  view.follow(START);
  assert.equal(view.opponent && view.opponent.hpFraction, 1);
  assert.equal(view.opponents.get('p2: Gholdengo')?.maxHp, 100);
  const other = new View('p2');
  other.follow(START);
  assert.equal(other.active && other.active.maxHp, 251);
});

test('boosts: clamped, swapped, cleared at a switch', () => {
  const view = new View('p1');
  const log = [...START, '|-boost|p2a: Gholdengo|spa|4', '|-boost|p2a: Gholdengo|spa|4',
    '|-swapboost|p1a: Palafin|p2a: Gholdengo|atk, spa|[from] move: Power Swap'];
  view.follow(log);
  assert.equal(view.active?.boosts.spa, 6);
  assert.equal(view.opponent?.boosts.spa, 0);
  log.push('|switch|p1a: Garchomp|Garchomp, L80, F|100/100'); // the log grows; read from there
  view.follow(log);
  assert.equal(view.team.get('p1: Palafin')?.boosts.spa, 0);
  assert.equal(view.active?.lastDetails, 'Garchomp, L80, F');
});

test('a forme kept across a switch with the same details, as poke-env keeps it', () => {
  const view = new View('p2');
  view.follow([...START, '|-formechange|p1a: Palafin|Palafin-Hero|',
    '|switch|p1a: Garchomp|Garchomp, L80, F|100/100', '|switch|p1a: Palafin|Palafin, L80, M|100/100']);
  assert.equal(view.opponent?.baseStats.atk, 160); // Hero's, not Zero's 70
});

test('side conditions: all the layers end at once, an unknown one is kept for good', () => {
  const view = new View('p1');
  const log = [...START, '|-sidestart|p2: Bot|Spikes', '|-sidestart|p2: Bot|Spikes',
    '|-sidestart|p1: Me|move: Nothing Known', '|-sideend|p1: Me|move: Nothing Known'];
  view.follow(log);
  assert.deepEqual([view.opponentConditions.has('SPIKES'), view.sideConditions.has('UNKNOWN')], [true, true]);
  log.push('|-sideend|p2: Bot|Spikes|[from] move: Rapid Spin');
  view.follow(log);
  assert.equal(view.opponentConditions.has('SPIKES'), false);
  log.push('|-sideend|p2: Bot|Spikes|[from] move: Rapid Spin'); // no such condition: poke-env raises
  assert.throws(() => view.follow(log), Unread);
});

test('what poke-env reads otherwise stops the game: mega evolution, an unknown line', () => {
  for (const line of ['|-mega|p2a: Gholdengo|Gholdengite',
    '|-newthing|p2a: Gholdengo']) {
    const view = new View('p1');
    assert.throws(() => view.follow([...START, line]), Unread, line);
  }
});

test('Transform: the other\'s species\' stats and types, and its boosts, until it switches out', () => {
  const view = new View('p1');
  const log = [...START, '|-boost|p1a: Palafin|atk|2',
    '|-transform|p2a: Gholdengo|p1a: Palafin|[from] ability: Imposter'];
  view.follow(log);
  const ditto = view.opponent;
  assert.deepEqual([ditto?.baseStats.atk, ditto?.types, ditto?.boosts.atk], [70, ['WATER'], 2]);
  log.push('|switch|p2a: Kingambit|Kingambit, L80, M|100/100');
  view.follow(log);
  assert.deepEqual([ditto?.baseStats.atk, ditto?.types], [60, ['STEEL', 'GHOST']]); // Gholdengo's own
});

test('an illusion ends: the illusionist takes the hp shown, its disguise is switched out', () => {
  const view = new View('p1');
  const log = [...START, '|-boost|p2a: Gholdengo|spa|1', '|-damage|p2a: Gholdengo|40/100',
    '|replace|p2a: Zoroark|Zoroark-Hisui, L80, F'];
  view.follow(log);
  const zoroark = view.opponent;
  assert.deepEqual([zoroark?.species, zoroark?.hp, zoroark?.boosts.spa], ['zoroarkhisui', 40, 0]);
  const gholdengo = view.opponents.get('p2: Gholdengo');
  assert.deepEqual([gholdengo?.active, gholdengo?.hp, gholdengo?.boosts.spa], [false, 0, 0]);
});
