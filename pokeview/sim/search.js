'use strict';
// pokeview's search player, run in its own Node process next to the bridge (JSON lines on
// stdin/stdout, one search at a time; see pokeview/sim/search_client.py).
//
// Fair by construction: a search is given one side's request and the protocol lines that side
// saw, and nothing else. From them it builds determinized battles: its own team exactly (the
// request), the foe's revealed Pokémon, moves, items, abilities and tera types as seen, and
// everything unseen sampled with a seeded PRNG from the pinned Showdown's own gen9 random-battle
// generator (its sets data and item logic). Each determinization is a real Showdown Battle; every
// joint action (own action x foe action, the foe's switches included) is played in it, and the
// turns' outcomes form a matrix game solved for a mixed equilibrium.
//
// The lessons of PokéBench's expectimax: the foe's hidden bench is in the simulated battle (sampled
// Pokémon at full HP), so a KO is a won game only when nothing is left behind it; and the foe may
// switch in the search.
const path = require('path');
const {createRequire} = require('module');
const {out} = require('./bridge/output');
const {readMessages} = require('./bridge/lines');

const FORMAT = 'gen9randombattle';
const WIN = 100;

let lib = null;

function load(modulesDir) {
  const need = createRequire(path.join(modulesDir, 'package.json'));
  const {Generations} = need('@pkmn/data');
  lib = {
    Battle: need('pokemon-showdown/dist/sim/battle').Battle,
    Teams: need('pokemon-showdown/dist/sim/teams').Teams,
    Dex: need('pokemon-showdown/dist/sim/dex').Dex,
    ClientBattle: need('@pkmn/client').Battle,
    Protocol: need('@pkmn/protocol').Protocol,
    gens: new Generations(need('@pkmn/dex').Dex),
  };
  lib.dex = lib.Dex.forFormat(lib.Dex.formats.get(FORMAT));
  return lib;
}

// -- seeded randomness ------------------------------------------------------------------------

function mix(...parts) {
  // A 32-bit hash of numbers and strings (FNV-1a), for deriving seeds.
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    h ^= 0x2c;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function prngSeed(...parts) {
  // Showdown's four 16-bit numbers.
  const a = mix(...parts, 'a');
  const b = mix(...parts, 'b');
  return [a & 0xffff, a >>> 16, b & 0xffff, b >>> 16];
}

// -- what the side saw --------------------------------------------------------------------------

function readView(lines) {
  const battle = new lib.ClientBattle(lib.gens);
  feed(battle, lines);
  return battle;
}

function feed(battle, lines) {
  for (const line of lines) {
    let parsed;
    try {
      parsed = lib.Protocol.parseBattleLine(line);
    } catch (e) {
      continue;
    }
    try {
      battle.add(parsed.args, parsed.kwArgs);
    } catch (e) {
      // A line the client model cannot follow leaves what it knew before it.
    }
  }
}

function parseCondition(condition) {
  // "123/300 par", "0 fnt", "55/100"
  const [hpPart, status] = condition.split(' ');
  const [hp, maxhp] = hpPart.split('/').map(Number);
  return {hp: hp || 0, maxhp: maxhp || 0, status: status === 'fnt' ? '' : status || '', fainted: status === 'fnt' || hp === 0};
}

function detailsOf(details) {
  const parts = details.split(', ');
  let level = 100;
  let gender = '';
  for (const part of parts.slice(1)) {
    if (/^L\d+$/.test(part)) level = Number(part.slice(1));
    else if (part === 'M' || part === 'F') gender = part;
  }
  return {species: parts[0], level, gender};
}

const EVS = {hp: 85, atk: 85, def: 85, spa: 85, spd: 85, spe: 85};
const IVS = {hp: 31, atk: 31, def: 31, spa: 31, spd: 31, spe: 31};

// Own team: exactly as the request says, in request order (the active first).
function ownTeam(request, view, sideId) {
  const clientSide = view[sideId];
  const clientActive = clientSide && clientSide.active[0];
  return request.side.pokemon.map((mon) => {
    const {species, level, gender} = detailsOf(mon.details);
    const cond = parseCondition(mon.condition);
    const set = {
      name: species, species, level, gender,
      moves: mon.moves.slice(),
      ability: mon.baseAbility || mon.ability || '',
      item: mon.item || '',
      teraType: mon.teraType || undefined,
      evs: EVS, ivs: IVS,
    };
    return {
      set,
      hp: cond.hp, maxhp: cond.maxhp, status: cond.status, fainted: cond.fainted,
      stats: mon.stats, item: mon.item || '', ability: mon.ability || '',
      terastallized: mon.terastallized || '',
      boosts: mon.active && clientActive ? {...clientActive.boosts} : {},
      volatiles: mon.active ? volatilesOf(clientActive) : [],
      active: !!mon.active,
    };
  });
}

function generatorFor(seedParts) {
  return lib.Teams.getGenerator(FORMAT, prngSeed(...seedParts));
}

function sampleSet(generator, speciesName) {
  const dex = lib.dex;
  let species = dex.species.get(speciesName);
  const tried = [species.name, species.baseSpecies, species.changesFrom, species.battleOnly].filter(Boolean);
  for (const name of tried) {
    const id = dex.species.get(String(name)).id;
    if (generator.randomSets[id]) {
      try {
        return generator.randomSet(String(name), {}, false, false);
      } catch (e) {
        // fall through to a plain set
      }
    }
  }
  species = dex.species.get(speciesName);
  return {
    name: species.name, species: species.name, level: 80, moves: ['tackle'], ability: species.abilities[0],
    item: '', teraType: species.types[0], evs: EVS, ivs: IVS,
  };
}

let pool = null;
function speciesPool(generator) {
  if (!pool) pool = Object.keys(generator.randomSets).sort();
  return pool;
}

// Foe team: revealed Pokémon as seen, their unseen parts and the unseen bench sampled.
function foeTeam(view, foeId, seedParts) {
  const clientFoe = view[foeId];
  const generator = generatorFor([...seedParts, 'foe']);
  const dex = lib.dex;
  const seen = clientFoe ? clientFoe.team : [];
  const total = clientFoe && clientFoe.totalPokemon ? clientFoe.totalPokemon : 6;
  const mons = [];
  for (const mon of seen) {
    const set = sampleSet(generator, mon.speciesForme);
    set.species = mon.speciesForme;
    set.name = mon.speciesForme;
    set.level = mon.level || set.level;
    set.gender = mon.gender || '';
    const revealed = mon.moveSlots.filter((s) => !s.virtual).map((s) => s.id);
    const moves = revealed.slice(0, 4);
    for (const m of set.moves.map((x) => dex.moves.get(x).id)) {
      if (moves.length >= 4) break;
      if (!moves.includes(m)) moves.push(m);
    }
    set.moves = moves;
    if (mon.baseAbility || mon.ability) set.ability = mon.baseAbility || mon.ability;
    let item = set.item;
    if (mon.item) item = mon.item;
    else if (mon.lastItem || mon.itemEffect) item = ''; // known to have lost it
    set.item = item;
    if (mon.terastallized) set.teraType = mon.terastallized;
    mons.push({
      set,
      hpFraction: mon.maxhp ? mon.hp / mon.maxhp : 1,
      status: mon.status && mon.status !== 'fnt' ? mon.status : '',
      fainted: !!mon.fainted || mon.hp === 0,
      item,
      terastallized: mon.terastallized || '',
      boosts: {...mon.boosts},
      volatiles: volatilesOf(mon),
      active: !!(clientFoe && clientFoe.active[0] === mon),
    });
  }
  // The unseen bench: species drawn from the format's random-battle pool (not one already
  // seen), each given a set by the generator itself.
  const seenBase = new Set(mons.map((m) => dex.species.get(m.set.species).baseSpecies));
  const pool = speciesPool(generator);
  for (let tries = 0; mons.length < total && tries < 200; tries++) {
    const species = pool[generator.prng.random(pool.length)];
    const base = dex.species.get(species).baseSpecies;
    if (seenBase.has(base)) continue;
    seenBase.add(base);
    const set = sampleSet(generator, species);
    mons.push({set, hpFraction: 1, status: '', fainted: false, item: set.item, terastallized: '', boosts: {}, active: false, hidden: true});
  }
  return mons;
}

// -- the determinized battle -------------------------------------------------------------------

function leadFirst(mons) {
  // Showdown sends the first of each team out: put the active (or the first one standing) first.
  let lead = mons.findIndex((m) => m.active && !m.fainted);
  if (lead < 0) lead = mons.findIndex((m) => !m.fainted);
  if (lead <= 0) return mons.map((m, i) => ({m, slot: i}));
  const order = [lead, ...mons.keys()].filter((v, i, a) => a.indexOf(v) === i);
  return order.map((i) => ({m: mons[i], slot: i}));
}

function fieldOf(view, sideId, foeId) {
  const f = view.field;
  const conditions = (side) => (side ? Object.values(side.sideConditions).map((c) => ({id: lib.dex.conditions.get(c.name).id, level: c.level || 1})) : []);
  return {
    weather: f.weather ? lib.dex.conditions.get(f.weather).id : '',
    terrain: f.terrain ? lib.dex.conditions.get(f.terrain).id : '',
    pseudo: Object.keys(f.pseudoWeather || {}).map((id) => lib.dex.conditions.get(id).id),
    sides: {[sideId]: conditions(view[sideId]), [foeId]: conditions(view[foeId])},
  };
}

function patchMon(battle, mon, st, isOwn) {
  if (isOwn && st.stats) {
    mon.storedStats = {...mon.storedStats, ...st.stats};
    if (st.maxhp) mon.maxhp = mon.baseMaxhp = st.maxhp;
  }
  if (st.fainted) {
    mon.hp = 0;
    mon.fainted = true;
    mon.status = 'fnt';
    return;
  }
  mon.hp = isOwn ? Math.max(1, Math.min(st.hp, mon.maxhp)) : Math.max(1, Math.round(st.hpFraction * mon.maxhp));
  const item = lib.dex.items.get(st.item || '').id;
  if (mon.item !== item) {
    mon.item = item;
    mon.itemState = battle.initEffectState({id: item, target: mon});
  }
  if (st.status && mon.status !== st.status) mon.setStatus(st.status, mon, null, true);
  if (!st.status && mon.status) mon.clearStatus();
  if (mon.isActive) {
    for (const stat of Object.keys(mon.boosts)) mon.boosts[stat] = st.boosts[stat] || 0;
    for (const id of st.volatiles || []) {
      if (!mon.volatiles[id]) mon.addVolatile(id, mon.side.foe.active[0] || mon); // seeded by the foe
    }
  }
}

// The volatiles a side can see that change what the next turns are worth; the rest are dropped.
const CARRIED = ['substitute', 'leechseed', 'confusion', 'taunt', 'yawn', 'saltcure', 'curse'];

function volatilesOf(clientMon) {
  if (!clientMon || !clientMon.volatiles) return [];
  const carried = CARRIED.filter((id) => clientMon.volatiles[id]);
  // Protect used last: a second one in a row may fail (without this, it never would).
  if (clientMon.lastMove && lib.dex.moves.get(clientMon.lastMove).stallingMove) carried.push('stall');
  return carried;
}

function build(det, nodeSeed) {
  const {me, foe} = det;
  const options = {formatid: FORMAT, seed: nodeSeed};
  options[me] = {name: me, team: det.ownTeam.map((x) => x.m.set)};
  options[foe] = {name: foe, team: det.foeTeam.map((x) => x.m.set)};
  const battle = new lib.Battle(options);
  for (const [sideId, team, isOwn] of [[me, det.ownTeam, true], [foe, det.foeTeam, false]]) {
    const side = battle.getSide(sideId);
    let left = 0;
    let teraUsed = false;
    team.forEach(({m}, i) => {
      const mon = side.pokemon[i];
      patchMon(battle, mon, m, isOwn);
      if (!m.fainted) left++;
      if (m.terastallized) {
        teraUsed = true;
        mon.teraType = m.terastallized;
        if (mon.isActive) {
          battle.actions.terastallize(mon);
        } else {
          mon.terastallized = m.terastallized;
          mon.apparentType = m.terastallized;
        }
      }
    });
    side.pokemonLeft = left;
    if (teraUsed) for (const mon of side.pokemon) mon.canTerastallize = null;
    for (const c of det.field.sides[sideId] || []) {
      for (let n = 0; n < c.level; n++) side.addSideCondition(c.id, 'debug');
    }
  }
  const field = battle.field;
  if (field.weather !== det.field.weather) {
    field.clearWeather();
    if (det.field.weather) field.setWeather(det.field.weather, 'debug');
  }
  if (field.terrain !== det.field.terrain) {
    field.clearTerrain();
    if (det.field.terrain) field.setTerrain(det.field.terrain, 'debug');
  }
  for (const id of det.field.pseudo) field.addPseudoWeather(id, 'debug');
  return battle;
}

// -- playing a node ------------------------------------------------------------------------------

function typeScore(dex, attacker, move, target) {
  if (move.category === 'Status') return 0;
  const targetTypes = target.getTypes();
  if (!dex.getImmunity(move.type, targetTypes)) return 0;
  const eff = Math.pow(2, dex.getEffectiveness(move.type, targetTypes));
  const stab = attacker.getTypes().includes(move.type) ? 1.5 : 1;
  const power = move.basePower || (move.damageCallback || move.damage ? 60 : 0);
  const ratio = move.category === 'Physical'
    ? attacker.storedStats.atk / Math.max(1, target.storedStats.def)
    : attacker.storedStats.spa / Math.max(1, target.storedStats.spd);
  return power * eff * stab * ratio;
}

function bestMove(battle, mon, target) {
  let best = 0;
  let bestScore = -1;
  mon.moveSlots.forEach((slot, i) => {
    if (slot.disabled || slot.pp <= 0) return;
    const score = typeScore(battle.dex, mon, battle.dex.moves.get(slot.id), target);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return {index: best, score: Math.max(0, bestScore)};
}

function trade(battle, mon, foe) {
  // How well `mon` trades blows with `foe`: its HP fraction times its best damage over the foe's.
  let score = mon.hp / mon.maxhp;
  if (foe && !foe.fainted) score *= (bestMove(battle, mon, foe).score + 20) / (bestMove(battle, foe, mon).score + 20);
  return score;
}

function policySwitch(battle, side) {
  // A switch inside the search (after a faint, a U-turn, a lost matchup): the Pokémon with the
  // best trade against the foe's active.
  const foeActive = side.foe.active[0];
  let best = null;
  let bestScore = -Infinity;
  side.pokemon.forEach((mon, i) => {
    if (mon.fainted || mon.isActive) return;
    const score = trade(battle, mon, foeActive);
    if (score > bestScore) {
      bestScore = score;
      best = i + 1;
    }
  });
  return best ? {choice: `switch ${best}`, score: bestScore} : {choice: 'pass', score: -Infinity};
}

function policyMove(battle, side) {
  // Both sides' play in the turns after the searched one: the strongest move, or a switch when
  // the matchup is lost and the bench has a much better one (a foe that never switches is too
  // easy: seed 001's second lesson).
  const mon = side.active[0];
  const target = side.foe.active[0];
  if (!mon || mon.fainted || !target || target.fainted) return 'default';
  const stay = trade(battle, mon, target);
  const trapped = side.activeRequest && side.activeRequest.active && side.activeRequest.active[0] &&
    side.activeRequest.active[0].trapped;
  if (!trapped) {
    const out = policySwitch(battle, side);
    if (out.score > 2 * stay + 0.2) return out.choice;
  }
  return `move ${bestMove(battle, mon, target).index + 1}`;
}

function settle(battle) {
  // Answer forced switches (a faint, a U-turn) until the next turn starts or the game ends.
  for (let guard = 0; guard < 8 && !battle.ended && battle.requestState === 'switch'; guard++) {
    for (const side of battle.sides) {
      const req = side.activeRequest;
      if (!req || req.wait) continue;
      if (!battle.choose(side.id, policySwitch(battle, side).choice)) battle.choose(side.id, 'default');
    }
  }
}

// Weights after Foul Play's evaluation, scaled to a Pokémon's HP = 1.
const STATUS_COST = {brn: 0.25, par: 0.25, psn: 0.1, tox: 0.25, slp: 0.25, frz: 0.4};
const HAZARD_COST = {stealthrock: 0.1, spikes: 0.07, toxicspikes: 0.07, stickyweb: 0.05}; // per Pokémon behind
const SCREEN_GAIN = {reflect: 0.2, lightscreen: 0.2, auroraveil: 0.3, tailwind: 0.1};
const BOOST_WEIGHT = {atk: 0.15, spa: 0.15, spe: 0.15, def: 0.08, spd: 0.08, accuracy: 0.03, evasion: 0.03};

function sideValue(side) {
  // Material: each Pokémon standing is worth 0.75 plus its HP fraction, whether seen or not.
  let value = 0;
  let behind = 0;
  for (const mon of side.pokemon) {
    if (mon.fainted || mon.hp <= 0) continue;
    if (!mon.isActive) behind++;
    value += 0.75 + mon.hp / mon.maxhp;
    value -= STATUS_COST[mon.status] || 0;
  }
  const active = side.active[0];
  if (active && !active.fainted && active.hp > 0) {
    for (const [stat, weight] of Object.entries(BOOST_WEIGHT)) {
      value += weight * Math.max(-4, Math.min(4, active.boosts[stat] || 0));
    }
  }
  for (const [id, state] of Object.entries(side.sideConditions)) {
    if (HAZARD_COST[id]) value -= HAZARD_COST[id] * (state.layers || 1) * behind;
    if (SCREEN_GAIN[id]) value += SCREEN_GAIN[id];
  }
  return value;
}

function evaluate(battle, me) {
  const mine = battle.getSide(me);
  if (battle.ended) {
    if (!battle.winner) return 0;
    return battle.winner === mine.name ? WIN : -WIN;
  }
  return sideValue(mine) - sideValue(mine.foe);
}

// How much of a node's value the turns after the searched one carry (see lambdaReturn). On the
// first 40 pairs of the depth sweep, where depth 1 won 78.8% of 80 games: depth 2 scored by its
// last turn alone (1, one sampled roll) won 48.8%; 0.5 with sampled rolls 68.8%, with middle
// rolls 72.5%; 0.3 with middle rolls 75.0%.
const LAMBDA = 0.3;

// The turns after the searched one are played with every draw at the middle of its range: no crit,
// the middle damage roll, a move that hits more often than not hits, a secondary effect below 50%
// never happens. One sampled roll of them made the luckiest-looking action win the matrix.
const MEDIAN_RNG = {next: () => 0x80000000, getSeed: () => [0, 0, 0, 0]};

function playout(det, myChoice, foeChoice, depth, nodeSeed) {
  // The searched turn (the joint action, on the node's seed), then depth - 1 turns of the greedy
  // policy for both sides: the evaluation after each turn (a game that ends keeps its result for
  // the turns left). null: Showdown refused our action; undefined: it refused the foe's.
  const battle = build(det, nodeSeed);
  if (!battle.choose(det.me, myChoice)) return null;
  if (!battle.choose(det.foe, foeChoice)) return undefined;
  settle(battle);
  const evals = [evaluate(battle, det.me)];
  if (depth > 1) battle.prng.rng = MEDIAN_RNG;
  for (let d = 1; d < depth && !battle.ended; d++) {
    for (const side of battle.sides) {
      if (!battle.choose(side.id, policyMove(battle, side))) battle.choose(side.id, 'default');
    }
    settle(battle);
    evals.push(evaluate(battle, det.me));
  }
  while (evals.length < depth) evals.push(evals[evals.length - 1]);
  return evals;
}

function lambdaReturn(evals, lambda = LAMBDA) {
  // (1 - l) (e1 + l e2 + l^2 e3 + ...) + l^(d-1) ed, as TD(lambda) weighs n-step returns: the
  // searched turn keeps weight 1 - l and each later turn a shrinking share, so depth refines
  // depth 1's value instead of replacing it. Depth 1: e1 itself.
  const last = evals.length - 1;
  let value = 0;
  for (let k = 0; k < last; k++) value += (1 - lambda) * Math.pow(lambda, k) * evals[k];
  return value + Math.pow(lambda, last) * evals[last];
}

function playNode(det, myChoice, foeChoice, depth, nodeSeed) {
  const evals = playout(det, myChoice, foeChoice, depth, nodeSeed);
  return evals ? lambdaReturn(evals) : evals;
}

// -- the matrix game -------------------------------------------------------------------------------

function foeChoices(det, root) {
  // The foe's moves and switch-ins, likeliest first (its strongest move against our active
  // first, then its other moves, then its switch-ins by how they trade), so a budget cut drops
  // the least likely answers.
  const side = root.getSide(det.foe);
  const active = side.active[0];
  const target = side.foe.active[0];
  const moves = active.moveSlots.map((slot, i) => ({
    choice: `move ${i + 1}`,
    score: 1e6 + (target ? typeScore(root.dex, active, root.dex.moves.get(slot.id), target) : 0),
  }));
  const switches = [];
  side.pokemon.forEach((mon, i) => {
    if (i === 0 || mon.fainted) return;
    let score = mon.hp / mon.maxhp;
    if (target) score *= (bestMove(root, mon, target).score + 20) / (bestMove(root, target, mon).score + 20);
    switches.push({choice: `switch ${i + 1}`, score});
  });
  return [...moves, ...switches].sort((a, b) => b.score - a.score).map((x) => x.choice);
}

function solve(matrix, iterations = 400) {
  // Regret matching on a zero-sum matrix game (rows maximise); deterministic. Returns each
  // side's average strategy.
  const m = matrix.length;
  const n = matrix[0].length;
  const rowRegret = new Array(m).fill(0);
  const colRegret = new Array(n).fill(0);
  const rowSum = new Array(m).fill(0);
  const colSum = new Array(n).fill(0);
  const strategy = (regret) => {
    let total = 0;
    for (const r of regret) if (r > 0) total += r;
    return total > 0 ? regret.map((r) => (r > 0 ? r / total : 0)) : regret.map(() => 1 / regret.length);
  };
  for (let t = 0; t < iterations; t++) {
    const p = strategy(rowRegret);
    const q = strategy(colRegret);
    const rowPay = new Array(m).fill(0);
    const colPay = new Array(n).fill(0);
    let value = 0;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        rowPay[i] += matrix[i][j] * q[j];
        colPay[j] -= p[i] * matrix[i][j];
      }
      value += rowPay[i] * p[i];
    }
    for (let i = 0; i < m; i++) {
      rowRegret[i] += rowPay[i] - value;
      rowSum[i] += p[i];
    }
    for (let j = 0; j < n; j++) {
      colRegret[j] += colPay[j] + value;
      colSum[j] += q[j];
    }
  }
  const norm = (xs) => {
    const total = xs.reduce((a, b) => a + b, 0);
    return xs.map((x) => x / total);
  };
  return {p: norm(rowSum), q: norm(colSum)};
}

const KEEP = 4;

function cpuMs() {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

const CLOCKS = {wall: () => performance.now(), cpu: cpuMs};
// What one node costs on each clock, as a running average: the first node of a search is not a guess.
const nodeCost = {wall: 3, cpu: 3};

class Budget {
  // Nodes (deterministic), wall-clock milliseconds since the search was asked (ms), or this
  // process's CPU milliseconds (cpu: the same compute on a busy machine as on an idle one, where
  // the wall clock may run longer). `share` gives a part of what is left to one piece of work
  // (one switch-in's look-ahead).
  constructor(spec, parent = null) {
    this.kind = spec.cpu ? 'cpu' : 'wall';
    this.clock = CLOCKS[this.kind];
    this.ms = spec.cpu || spec.ms || 0;
    this.maxNodes = spec.nodes || 0;
    this.started = this.clock();
    this.nodes = 0;
    this.parent = parent;
  }
  elapsed() {
    return this.clock() - this.started;
  }
  count() {
    this.nodes++;
    if (this.parent) this.parent.count();
  }
  spent(nodesAhead = 1) {
    // Time: stop when the next piece of work (nodesAhead nodes at 1.5 times the running
    // average, for the jitter of a shared machine) would end past 95% of the budget.
    if (this.parent && this.parent.spent(nodesAhead)) return true;
    if (this.maxNodes) return this.nodes >= this.maxNodes;
    if (!this.ms) return false;
    return this.elapsed() + 1.5 * nodesAhead * nodeCost[this.kind] >= 0.95 * this.ms;
  }
  share(parts) {
    const child = {};
    if (this.maxNodes) child.nodes = Math.max(1, Math.floor((this.maxNodes - this.nodes) / parts));
    else child[this.kind === 'cpu' ? 'cpu' : 'ms'] = Math.max(0.001, (this.ms - this.elapsed()) / parts);
    return new Budget(child, this);
  }
}

function timedNode(det, myChoice, foeChoice, depth, nodeSeed) {
  const wall = performance.now();
  const cpu = cpuMs();
  const value = playNode(det, myChoice, foeChoice, depth, nodeSeed);
  nodeCost.wall = 0.8 * nodeCost.wall + 0.2 * (performance.now() - wall);
  nodeCost.cpu = 0.8 * nodeCost.cpu + 0.2 * (cpuMs() - cpu);
  return value;
}

// One matrix game per determinization: rows are our actions (Showdown choices in the simulated
// battle), columns the foe's actions in that determinization (its bench is sampled, so each
// determinization has its own). A row's value is its payoff against the foe's equilibrium mix,
// averaged over the determinizations that were played through.
function searchMatrix(dets, rows, budget, depth, seed) {
  const rowValue = new Array(rows.length).fill(0);
  const rowWeight = new Array(rows.length).fill(0);
  const rowProb = new Array(rows.length).fill(0);
  let live = rows.map((_, i) => i); // the rows still searched
  let screened = false;
  let samples = 0;
  const next = dets[Symbol.iterator]();
  // Sampling a determinization and building it cost about two nodes: check before either.
  while (!budget.spent(3)) {
    const {value: det, done} = next.next();
    if (done) break;
    const nodeSeed = prngSeed(seed, det.index, 'node');
    const root = build(det, nodeSeed);
    budget.count();
    const cols = foeChoices(det, root);
    const matrix = rows.map(() => new Array(cols.length).fill(null));
    const doneCols = [];
    // Whole columns (foe actions), likeliest first: a budget cut leaves out unlikely foe actions,
    // never some of our own.
    for (let j = 0; j < cols.length; j++) {
      let complete = true;
      for (const i of live) {
        if (budget.spent()) {
          complete = false;
          break;
        }
        matrix[i][j] = timedNode(det, rows[i], cols[j], depth, nodeSeed);
        budget.count();
      }
      if (!complete) break;
      doneCols.push(j);
      if (!screened) {
        // After every row has met the foe's likeliest answer, only the best third (at least
        // KEEP) go on to meet the others: more of the foe's answers for the same budget.
        screened = true;
        live = live
          .filter((i) => typeof matrix[i][0] === 'number')
          .sort((a, b) => matrix[b][0] - matrix[a][0] || a - b)
          .slice(0, Math.max(KEEP, Math.ceil(rows.length / 3)))
          .sort((a, b) => a - b);
      }
    }
    if (!doneCols.length) continue;
    // Rows Showdown refused (null) are left out; a column the foe could not play (undefined) too.
    const cj = doneCols.filter((j) => live.every((i) => matrix[i][j] !== undefined));
    const ri = live.filter((i) => cj.length && cj.every((j) => typeof matrix[i][j] === 'number'));
    if (!ri.length || !cj.length) continue;
    const sub = ri.map((i) => cj.map((j) => matrix[i][j]));
    const {p, q} = solve(sub);
    ri.forEach((i, a) => {
      rowValue[i] += sub[a].reduce((acc, v, b) => acc + v * q[b], 0);
      rowWeight[i] += 1;
      rowProb[i] += p[a];
    });
    samples++;
  }
  const values = rows.map((_, i) => (rowWeight[i] ? rowValue[i] / rowWeight[i] : null));
  const probs = rows.map((_, i) => (samples ? rowProb[i] / samples : 0));
  return {values, probs, samples};
}

function* determinizations(input, view, count) {
  // Made as the search reaches them: sampling a foe team costs about as much as a node.
  const me = input.side;
  const foe = me === 'p1' ? 'p2' : 'p1';
  const own = ownTeam(input.request, view, me);
  const field = fieldOf(view, me, foe);
  for (let k = 0; k < count; k++) {
    const foeMons = foeTeam(view, foe, [input.seed, k]);
    yield {
      index: k, me, foe, ownMons: own, ownTeam: leadFirst(own), foeTeam: leadFirst(foeMons), field,
      hidden: foeMons.filter((m) => m.hidden).length,
    };
  }
}

function hidden(view, me) {
  const foe = view[me === 'p1' ? 'p2' : 'p1'];
  return foe ? Math.max(0, (foe.totalPokemon || 6) - foe.team.length) : 6;
}

// The side's view, kept between its decisions: each search of the same stream feeds only the
// lines it has not seen (a stream is one side of one game; only that side's lines go in).
const views = new Map();
const MAX_VIEWS = 64;

function viewFor(input) {
  const lines = input.lines || [];
  const key = input.stream;
  const kept = key ? views.get(key) : null;
  if (kept && kept.count <= lines.length && (kept.count === 0 || lines[kept.count - 1] === kept.last)) {
    feed(kept.view, lines.slice(kept.count));
    kept.count = lines.length;
    kept.last = lines[lines.length - 1];
    return kept.view;
  }
  const view = readView(lines);
  if (key) {
    views.delete(key);
    views.set(key, {view, count: lines.length, last: lines[lines.length - 1]});
    if (views.size > MAX_VIEWS) views.delete(views.keys().next().value);
  }
  return view;
}

function ownRows(request, actions) {
  // The legal actions as choices in the simulated battle: moves by id (a locked or encored
  // request numbers its moves differently from the full moveset).
  const activeMoves = (request.active && request.active[0] && request.active[0].moves) || [];
  return actions.map((choice) => {
    const [kind, arg, gimmick] = choice.split(' ');
    if (kind !== 'move') return choice;
    const move = activeMoves[Number(arg) - 1];
    return `move ${move ? move.id : arg}${gimmick ? ' ' + gimmick : ''}`;
  });
}

function forcedSwitch(input, dets, budget, depth) {
  // Our active fainted: each switch-in is scored by the game of the turn after it comes in
  // (its two strongest moves against the foe's answers), sharing the budget equally.
  const actions = input.actions;
  const values = new Array(actions.length).fill(0);
  const weights = new Array(actions.length).fill(0);
  let samples = 0;
  const next = dets[Symbol.iterator]();
  while (!budget.spent(3)) {
    const {value: det, done} = next.next();
    if (done) break;
    const piece = budget.share(1);
    let any = false;
    actions.forEach((choice, r) => {
      const slot = Number(choice.split(' ')[1]) - 1;
      const own = det.ownMons.map((m, i) => ({...m, active: i === slot}));
      const candidate = {...det, ownTeam: leadFirst(own)};
      const probe = build(candidate, prngSeed(input.seed, det.index, 'probe'));
      const me = probe.getSide(det.me);
      const lead = me.active[0];
      const target = me.foe.active[0];
      const ranked = lead.moveSlots
        .map((slot, i) => ({i, score: target ? typeScore(probe.dex, lead, probe.dex.moves.get(slot.id), target) : 0}))
        .sort((a, b) => b.score - a.score)
        .slice(0, 2)
        .map((x) => `move ${x.i + 1}`);
      const sub = searchMatrix([candidate], ranked, piece.share(actions.length - r), depth, input.seed);
      const known = sub.values.filter((v) => v !== null);
      if (!known.length) return;
      values[r] += Math.max(...known);
      weights[r] += 1;
      any = true;
    });
    if (any) samples++;
  }
  return {
    values: actions.map((_, r) => (weights[r] ? values[r] / weights[r] : null)),
    probs: actions.map(() => 0),
    samples,
  };
}

function fallback(input, view) {
  const det = determinizations(input, view, 1).next().value;
  const battle = build(det, prngSeed(input.seed, 'fallback'));
  const me = battle.getSide(det.me);
  if (input.request.forceSwitch) {
    // The switch-in that trades best with the foe's active; simulated slots back to the request's.
    const pick = policySwitch(battle, me).choice;
    const simSlot = Number(pick.split(' ')[1]) || 1;
    const slot = det.ownTeam[simSlot - 1] ? det.ownTeam[simSlot - 1].slot + 1 : 0;
    return Math.max(0, input.actions.indexOf(`switch ${slot}`));
  }
  const mon = me.active[0];
  const target = me.foe.active[0];
  let best = 0;
  let bestScore = -1;
  ownRows(input.request, input.actions).forEach((choice, i) => {
    const [kind, id] = choice.split(' ');
    const score = kind === 'move' && mon && target ? typeScore(battle.dex, mon, battle.dex.moves.get(id), target) : 0;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

function search(input) {
  const started = performance.now();
  const cpuStarted = cpuMs();
  const budget = new Budget(input.budget || {});
  const depth = input.depth || 1;
  const view = viewFor(input);
  const dets = determinizations(input, view, input.samples || 64);
  const result = input.request.forceSwitch
    ? forcedSwitch(input, dets, budget, depth)
    : searchMatrix(dets, ownRows(input.request, input.actions), budget, depth, input.seed);
  // Choose: the best value against the foe's equilibrium mix; ties to the more played action,
  // then to the earlier one. With nothing searched (a budget smaller than one node), the
  // strongest-looking move.
  let best = result.values.every((v) => v === null) ? fallback(input, view) : -1;
  result.values.forEach((v, i) => {
    if (v === null) return;
    if (best < 0 || v > result.values[best] + 1e-9 ||
        (Math.abs(v - result.values[best]) <= 1e-9 && result.probs[i] > result.probs[best])) best = i;
  });
  return {
    index: best < 0 ? 0 : best,
    values: result.values.map((v) => (v === null ? null : Math.round(v * 1000) / 1000)),
    probs: result.probs.map((p) => Math.round(p * 1000) / 1000),
    nodes: budget.nodes,
    samples: result.samples,
    hidden: hidden(view, input.side),
    elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
    // CPU time of this process: below elapsed_ms when other processes share the cores.
    cpu_ms: Math.round((cpuMs() - cpuStarted) * 10) / 10,
  };
}

function warmUp() {
  // A fresh process runs Showdown several times slower until the JIT has seen it: play some
  // nodes before saying ready, so the first decisions of a game get their budget's worth.
  const teams = [1, 2].map((n) => lib.Teams.generate(FORMAT, {seed: [n, 7, 7, 7]}));
  const deadline = performance.now() + 1500;
  for (let n = 0; n < 400 && performance.now() < deadline; n++) {
    const battle = new lib.Battle({formatid: FORMAT, seed: [n, 1, 2, 3], p1: {name: 'p1', team: teams[0]}, p2: {name: 'p2', team: teams[1]}});
    for (let turn = 0; turn < 3 && !battle.ended; turn++) {
      for (const side of battle.sides) {
        if (!battle.choose(side.id, policyMove(battle, side))) battle.choose(side.id, 'default');
      }
      settle(battle);
    }
  }
}

module.exports = {
  load, search, readView, warmUp, FORMAT,
  // For tests: one node of a query's determinization.
  determinizations, build, foeChoices, ownRows, prngSeed, playout, playNode, LAMBDA,
};

if (require.main === module) {
  const modulesDir = process.argv[2];
  if (!modulesDir) {
    process.stderr.write('usage: node search.js NODE_PROJECT_DIR\n');
    process.exit(2);
  }
  load(modulesDir);
  warmUp();
  readMessages(
    (msg) => out({id: msg.id, result: search(msg)}),
    (err, msg) => out({id: msg ? msg.id : null, error: String((err && err.stack) || err)}),
  );
  out({type: 'ready', pid: process.pid});
}
