'use strict';
// An independent reading of one side's state: Showdown's own client (@pkmn/client), fed that
// side's protocol lines, read at given points. Input on stdin: {"p1": {"lines": [...],
// "points": [line counts]}, "p2": ...}; output: per side, a summary at each point (what
// tests/integration/test_side_state.py compares with the record's states).
const path = require('path');
const {createRequire} = require('module');

const need = createRequire(path.join(process.env.POKEVIEW_SHOWDOWN_DIR, 'package.json'));
const {Battle} = need('@pkmn/client');
const {Protocol} = need('@pkmn/protocol');
const {Generations} = need('@pkmn/data');
const {Dex} = need('@pkmn/dex');

// Everything the simulator can field (as the bridge does): random battles field "Illegal" ones.
const gens = new Generations(Dex, (d) => !!d.exists && !(d.kind === 'Ability' && d.id === 'noability'));

function mon(pokemon, side) {
  const boosts = {};
  for (const [stat, value] of Object.entries(pokemon.boosts)) if (value) boosts[stat] = value;
  return {
    species: pokemon.volatiles.transform ? null : pokemon.speciesForme,
    active: side.active[0] === pokemon,
    hp: pokemon.hp,
    maxhp: pokemon.maxhp,
    status: pokemon.status || '',
    fainted: !!pokemon.fainted,
    boosts,
  };
}

function summary(battle, sideId) {
  const me = battle[sideId];
  const foe = me.foe;
  const conditions = (side) => Object.values(side.sideConditions).map((c) => c.name).sort();
  return {
    team: me.team.map((p) => mon(p, me)),
    foeTeam: foe.team.map((p) => mon(p, foe)),
    weather: battle.field.weather || '',
    terrain: battle.field.terrain || '',
    pseudoWeather: Object.keys(battle.field.pseudoWeather).sort(),
    mine: conditions(me),
    theirs: conditions(foe),
  };
}

const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = {};
for (const [sideId, {lines, points}] of Object.entries(input)) {
  const battle = new Battle(gens);
  const summaries = [];
  let fed = 0;
  for (const point of points) {
    for (; fed < point; fed++) {
      const {args, kwArgs} = Protocol.parseBattleLine(lines[fed]);
      try {
        battle.add(args, kwArgs);
      } catch (e) {
        // a line the client cannot take changes nothing it knows
      }
    }
    summaries.push(summary(battle, sideId));
  }
  out[sideId] = summaries;
}
process.stdout.write(JSON.stringify(out));
