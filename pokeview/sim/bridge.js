'use strict';
// pokeview's Node bridge: one long-lived process hosting many Showdown battles.
// Python speaks to it in JSON lines on stdin/stdout (see pokeview/sim/client.py).
// Each command that moves a battle answers with one "step" message holding everything the
// simulator emitted for it: each side's protocol lines, that side's battle-log words (rendered by
// @pkmn/view's LogFormatter from that side's perspective), its request and any refusal, plus the
// new spectator and input-log lines. A throw inside one battle ends that battle only.
const path = require('path');
const {createRequire} = require('module');

const modulesDir = process.argv[2];
if (!modulesDir) {
  process.stderr.write('usage: node bridge.js NODE_PROJECT_DIR\n');
  process.exit(2);
}
const need = createRequire(path.join(modulesDir, 'package.json'));
const {BattleStream} = need('pokemon-showdown/dist/sim/battle-stream');
const {extractChannelMessages} = need('pokemon-showdown/dist/sim/battle');
const {Teams} = need('pokemon-showdown/dist/sim/teams');
const {TeamValidator} = need('pokemon-showdown/dist/sim/team-validator');
const {Dex} = need('pokemon-showdown/dist/sim/dex');
const ClientDex = need('@pkmn/dex').Dex;
const {Generations} = need('@pkmn/data');
const ClientBattle = need('@pkmn/client').Battle;
const {Protocol} = need('@pkmn/protocol');
const {LogFormatter} = need('@pkmn/view');
const SHOWDOWN_VERSION = need('pokemon-showdown/package.json').version;

const gens = new Generations(ClientDex);
const SIDES = ['p1', 'p2'];
// Lines that differ from run to run or are the simulator talking to itself.
const isNoise = (line) => line.startsWith('|t:|') || line.startsWith('|debug|');

function out(msg) {
  process.stdout.write(JSON.stringify(msg) + '\n');
}

function outStep(step) {
  // Like out(), but each request is already JSON text and is spliced in as it is.
  const sides = Object.entries(step.sides).map(([side, u]) =>
    `${JSON.stringify(side)}:{"lines":${JSON.stringify(u.lines)},"text":${JSON.stringify(u.text)},` +
    `"request":${u.request || 'null'},"error":${JSON.stringify(u.error)},` +
    `"state":${JSON.stringify(u.state || null)}}`);
  process.stdout.write(
    `{"battle":${JSON.stringify(step.battle)},"type":"step","sides":{${sides.join(',')}},` +
    `"spectator":${JSON.stringify(step.spectator)},"input":${JSON.stringify(step.input)},` +
    `"end":${JSON.stringify(step.end)}}\n`);
}

// Client markup to plain words: **bold** -> bold, ||exact HP||percentage|| -> percentage.
function plainText(text) {
  return text.replace(/\|\|[^|]*\|\|([^|]*)\|\|/g, '$1').replace(/\*\*/g, '');
}

class SideWords {
  // Tracks one side's knowledge with @pkmn/client and words each line from its perspective.
  // It is fed the side's protocol only: handing it Showdown's requests (battle.update) makes it
  // rebuild the team in request order and word switches and damage wrongly ("X, come back!"
  // for a Pokémon that had fainted, "lost 1%" for 11.4%).
  constructor(side) {
    this.battle = new ClientBattle(gens);
    this.formatter = new LogFormatter(side, this.battle);
  }
  render(lines) {
    const words = [];
    for (const line of lines) {
      let parsed;
      try {
        parsed = Protocol.parseBattleLine(line);
      } catch (e) {
        continue;
      }
      const {args, kwArgs} = parsed;
      let text = '';
      try {
        text = this.formatter.formatText(args, kwArgs) || '';
        this.battle.add(args, kwArgs);
      } catch (e) {
        // The words are a courtesy; a formatter gap must not stop the battle.
      }
      // PokéBench's log: each formatted chunk trimmed, so only its follow-up lines keep
      // their indent ("[The opposing Rotom's Levitate]" / "  It doesn't affect ...").
      for (const piece of plainText(text).trim().split('\n')) {
        if (piece.trim()) words.push(piece);
      }
    }
    return words;
  }
}

// What a player on one side knows when asked to decide, for the model's prompt: its own team
// exactly (from the simulator), the opponent and the field as far as seen (from that side's
// @pkmn/client battle, the same knowledge Showdown's client has).
const moveInfoCache = new Map(); // the same few hundred moves, asked at every request
function moveInfo(dex, id) {
  const key = `${dex.currentMod}|${id}`;
  let info = moveInfoCache.get(key);
  if (!info) {
    const move = dex.moves.get(id);
    info = {
      name: move.name, type: move.type, category: move.category, basePower: move.basePower,
      accuracy: move.accuracy, desc: move.shortDesc || move.desc || '',
    };
    moveInfoCache.set(key, info);
  }
  return info;
}

function boostsOf(clientMon) {
  if (!clientMon) return {};
  const out = {};
  for (const [stat, value] of Object.entries(clientMon.boosts || {})) if (value) out[stat] = value;
  return out;
}

// A Pokémon as a side's @pkmn/client battle knows it (the opponent's, or any in a replay).
function publicMon(dex, mon, side) {
  return {
    species: mon.speciesForme,
    active: side.active[0] === mon,
    types: mon.types,
    level: mon.level,
    hp: mon.hp,
    maxhp: mon.maxhp,
    status: mon.status || '',
    fainted: !!mon.fainted,
    ability: mon.ability ? dex.abilities.get(mon.ability).name : '',
    item: mon.item ? dex.items.get(mon.item).name : '',
    terastallized: mon.terastallized || '',
    boosts: boostsOf(mon),
    moves: mon.moveSlots.filter((slot) => !slot.virtual).map((slot) => slot.name),
  };
}

function sideConditionsOf(side) {
  return side ? Object.values(side.sideConditions).map((c) => ({name: c.name, level: c.level})) : [];
}

function snapshot(battle, sideId, client) {
  const side = battle.getSide(sideId);
  const dex = battle.dex;
  const clientSide = client[sideId]; // the client names its sides by player name, not by slot
  const clientFoe = clientSide && clientSide.foe;
  const team = side.pokemon.map((mon) => {
    const clientMon = mon.isActive && clientSide ? clientSide.active[0] : null;
    const entry = {
      species: mon.details.split(',')[0],
      active: mon.isActive,
      types: mon.getTypes(),
      level: mon.level,
      hp: mon.hp,
      maxhp: mon.maxhp,
      status: mon.status || '',
      fainted: mon.fainted,
      ability: dex.abilities.get(mon.ability).name,
      item: mon.item ? dex.items.get(mon.item).name : '',
      teraType: mon.teraType || '',
      terastallized: mon.terastallized || '',
      stats: mon.getStat ? {
        atk: mon.storedStats.atk, def: mon.storedStats.def, spa: mon.storedStats.spa,
        spd: mon.storedStats.spd, spe: mon.storedStats.spe,
      } : {},
      moves: mon.moveSlots.map((slot) => slot.move),
    };
    if (mon.isActive) {
      entry.boosts = boostsOf(clientMon);
      entry.moveInfo = mon.moveSlots.map((slot) => moveInfo(dex, slot.id));
    }
    return entry;
  });
  const foeTeam = clientFoe ? clientFoe.team.map((mon) => publicMon(dex, mon, clientFoe)) : [];
  const field = client.field;
  return {
    turn: battle.turn,
    format: battle.format.name,
    me: side.name,
    foe: side.foe.name,
    team,
    foeTeam,
    foeTotal: clientFoe ? clientFoe.totalPokemon : 6,
    field: {
      weather: field.weather || '',
      terrain: field.terrain || '',
      pseudoWeather: Object.keys(field.pseudoWeather || {}).map((id) => dex.moves.get(id).name || id),
      mine: sideConditionsOf(clientSide),
      theirs: sideConditionsOf(clientFoe),
    },
  };
}

// A replay's public knowledge of both sides at one point (no simulator: only the log's lines).
function publicSnapshot(client, sideId) {
  const me = client[sideId];
  const foe = me && me.foe;
  const dex = client.gen.dex;
  return {
    turn: client.turn,
    format: client.tier || '',
    me: me ? me.name : '',
    foe: foe ? foe.name : '',
    team: me ? me.team.map((mon) => publicMon(dex, mon, me)) : [],
    foeTeam: foe ? foe.team.map((mon) => publicMon(dex, mon, foe)) : [],
    foeTotal: foe ? foe.totalPokemon : 6,
    field: {
      weather: client.field.weather || '',
      terrain: client.field.terrain || '',
      pseudoWeather: Object.keys(client.field.pseudoWeather || {}).map((id) => dex.moves.get(id).name || id),
      mine: sideConditionsOf(me),
      theirs: sideConditionsOf(foe),
    },
  };
}

function follow(lines) {
  // A spectator log cut at each turn's start: each piece's lines, both sides' words for them, and what
  // each side's view shows once the piece has happened.
  const words = {p1: new SideWords('p1'), p2: new SideWords('p2')};
  const pieces = [];
  let current = [];
  const flush = () => {
    if (!current.length) return;
    const piece = {lines: current, text: {}, state: {}};
    for (const side of SIDES) {
      piece.text[side] = words[side].render(current);
      piece.state[side] = publicSnapshot(words[side].battle, side);
    }
    pieces.push(piece);
    current = [];
  };
  for (const line of lines) {
    if (isNoise(line)) continue;
    current.push(line);
    // Cut just after "|turn|N": like a player's decision point at the start of turn N.
    if (line.startsWith('|turn|')) flush();
  }
  flush();
  return pieces;
}

class Sink extends BattleStream {
  constructor() {
    super({keepAlive: true});
    this.emitted = [];
  }
  pushMessage(type, data) {
    this.emitted.push([type, data]);
  }
}

class HostedBattle {
  constructor(id, quiet, omniscient) {
    this.id = id;
    this.quiet = quiet; // replays for verification need only the spectator log
    this.omniscient = omniscient; // ...or the omniscient one (exact HP on both sides), for Pokéval
    this.stream = new Sink();
    this.words = {p1: new SideWords('p1'), p2: new SideWords('p2')};
    this.inputSent = 0;
    this.ended = false;
  }

  write(lines, noteRefusals = false) {
    // Runs commands synchronously and returns the step message for what they produced.
    this.stream._writeLines(lines.join('\n'));
    if (this.stream.battle) this.stream.battle.sendUpdates();
    const emitted = this.stream.emitted.splice(0);
    const step = {battle: this.id, type: 'step', sides: {}, spectator: [], input: [], end: null};
    const sideLines = {p1: [], p2: []};
    const requests = {};
    const errors = {};
    let end = null;
    for (const [type, data] of emitted) {
      if (type === 'update') {
        const channels = extractChannelMessages(data, [-1, 0, 1, 2]);
        step.spectator.push(...channels[this.omniscient ? -1 : 0].filter((l) => !isNoise(l)));
        sideLines.p1.push(...channels[1].filter((l) => !isNoise(l)));
        sideLines.p2.push(...channels[2].filter((l) => !isNoise(l)));
      } else if (type === 'sideupdate') {
        const side = data.slice(0, 2);
        const body = data.slice(3);
        // Requests pass through as Showdown's JSON text: parsed once, in Python.
        if (body.startsWith('|request|')) requests[side] = body.slice(9);
        else if (body.startsWith('|error|')) errors[side] = body.slice(7);
      } else if (type === 'end') {
        end = JSON.parse(data);
      }
    }
    const battle = this.stream.battle;
    if (battle) {
      step.input = battle.inputLog.slice(this.inputSent);
      this.inputSent = battle.inputLog.length;
    }
    if (!this.quiet) {
      for (const side of SIDES) {
        const lines = sideLines[side];
        const request = requests[side] || null;
        if (!lines.length && !request && !errors[side]) continue;
        const text = this.words[side].render(lines);
        const asks = battle && battle.getSide(side).activeRequest;
        step.sides[side] = {
          lines,
          text,
          request,
          error: errors[side] || null,
          state: request && asks && !asks.wait ? snapshot(battle, side, this.words[side].battle) : null,
        };
      }
    } else {
      step.sides = {};
    }
    if (noteRefusals) step.refused = Object.values(errors)[0] || null;
    if (end || (battle && battle.ended && !this.ended)) {
      this.ended = true;
      const winner = battle.winner || '';
      const winnerSide = SIDES.find((s) => battle.getSide(s).name === winner) || null;
      step.end = {winner: winnerSide, turns: battle.turn};
    }
    return step;
  }
}

const battles = new Map();

function toTeam(team, side, format) {
  // Accepts packed, export or JSON teams; returns the packed form Showdown takes.
  if (team === undefined || team === null || team === '') return undefined;
  const sets = Teams.import(String(team));
  if (!sets || !sets.length) throw new Error(`the team for ${side} could not be read (packed or export format expected)`);
  if (format && Dex.forFormat(format).gen === 1) for (const set of sets) gen1Set(set, side);
  return Teams.pack(sets);
}

function notFromLaterGens(format, sets, side) {
  // Custom games validate nothing; a Pokémon or a move from a later generation then crashes the
  // simulator deep inside ("reading 'types'"). Say which one, and why. (Items and abilities
  // from later generations are only ignored by the older simulators.)
  const dex = Dex.forFormat(format);
  for (const set of sets) {
    const checks = [
      ['Pokémon', dex.species.get(set.species)],
      ...(set.moves || []).map((m) => ['move', dex.moves.get(m)]),
    ];
    for (const [what, thing] of checks) {
      if (!thing || !thing.exists) continue; // the validator or the simulator names those
      if (thing.gen > dex.gen || thing.isNonstandard === 'Future') {
        throw new Error(`the team for ${side}: the ${what} ${thing.name} is not in Gen ${dex.gen} ` +
          `(it first appears in Gen ${thing.gen}), so ${format.id} cannot use it`);
      }
    }
  }
}

function gen1Set(set, side) {
  // Gen 1 has no items, abilities or natures, and one Special stat. Custom games do not check
  // this, and the pinned Showdown gives an empty ability the species' default (unpacking fills
  // it in), which then acts (Blaze, Volt Absorb): so every Gen 1 member plays with `No Ability`,
  // and the rest is refused.
  const who = `the team for ${side}: ${set.species || set.name}`;
  if (set.item) throw new Error(`${who} holds ${set.item}; Gen 1 has no items`);
  if (set.nature) throw new Error(`${who} has the nature ${set.nature}; Gen 1 has none`);
  for (const [what, stats] of [['EVs', set.evs], ['IVs', set.ivs]]) {
    if (stats && stats.spa !== stats.spd) throw new Error(`${who} has different Sp. Atk and Sp. Def ${what}; Gen 1 has one Special stat`);
  }
  set.ability = 'No Ability';
}

function startCommands(msg) {
  if (msg.inputlog) return msg.inputlog; // a replay or a fork: an input log (or a prefix of one)
  const format = Dex.formats.get(msg.format);
  if (!format.exists || format.effectType !== 'Format') throw new Error(`unknown format '${msg.format}'`);
  if (format.gameType && format.gameType !== 'singles') throw new Error(`format '${format.id}' is ${format.gameType}; pokeview plays singles`);
  const lines = [`>start ${JSON.stringify({formatid: format.id, seed: msg.seed})}`];
  for (const side of SIDES) {
    const spec = (msg.players && msg.players[side]) || {};
    const options = {name: spec.name || (side === 'p1' ? 'Player 1' : 'Player 2')};
    const team = toTeam(spec.team, side, format);
    if (team) {
      notFromLaterGens(format, Teams.unpack(team), side);
      if (msg.validate !== false) {
        const problems = TeamValidator.get(format.id).validateTeam(Teams.unpack(team));
        if (problems && problems.length) throw new Error(`the team for ${side} is not valid in ${format.id}: ${problems.join('; ')}`);
      }
      options.team = team;
    } else if (!format.team) {
      throw new Error(`format '${format.id}' needs a team for each side`);
    } else if (spec.seed) {
      options.seed = spec.seed;
    }
    lines.push(`>player ${side} ${JSON.stringify(options)}`);
  }
  return lines;
}

function handle(msg) {
  const id = msg.battle;
  switch (msg.op) {
    case 'info':
      out({type: 'info', showdown: SHOWDOWN_VERSION, battles: battles.size});
      return;
    case 'start': {
      if (battles.has(id)) throw new Error(`battle ${id} exists`);
      const lines = startCommands(msg);
      const hosted = new HostedBattle(id, !!msg.quiet, !!msg.omniscient);
      battles.set(id, hosted);
      if (msg.omniscient) {
        // Like Pokéval's oracle: line by line, stopping at the first choice Showdown refuses.
        const step = {battle: id, type: 'step', sides: {}, spectator: [], input: [], end: null, stopped: null};
        for (const [n, line] of lines.entries()) {
          hosted.stream.emitted.length = 0;
          const part = hosted.write([line], true);
          step.spectator.push(...part.spectator);
          step.end = part.end || step.end;
          if (part.refused) {
            step.stopped = {line: n + 1, input: line, error: part.refused};
            break;
          }
        }
        out(step);
        return;
      }
      outStep(hosted.write(lines));
      return;
    }
    case 'choose':
    case 'tie': {
      const hosted = battles.get(id);
      if (!hosted) throw new Error(`no battle ${id}`);
      const line = msg.op === 'tie' ? '>forcetie' : `>${msg.side} ${msg.choice}`;
      const step = hosted.write([line]);
      if (Object.keys(step.sides).length || step.spectator.length || step.input.length || step.end) outStep(step);
      return;
    }
    case 'end': { // how an input log ended without a choice: a forfeit, a loss on time, a tie
      const hosted = battles.get(id);
      if (!hosted) throw new Error(`no battle ${id}`);
      if (!/^>(forcelose p[12]|forcewin p[12]|forcetie)$/.test(msg.line)) throw new Error(`not an ending: ${msg.line}`);
      outStep(hosted.write([msg.line]));
      return;
    }
    case 'close':
      battles.delete(id);
      return;
    case 'follow': // a replay log, for importing it: no battle is kept
      out({battle: id, type: 'followed', pieces: follow(msg.lines || [])});
      return;
    case 'debug-crash': // for tests: make one battle throw inside the simulator
      if (battles.has(id)) battles.get(id).stream.battle.choose = () => { throw new Error('test crash'); };
      return;
    default:
      throw new Error(`unknown op '${msg.op}'`);
  }
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (!line.trim()) continue;
    let msg;
    try {
      msg = JSON.parse(line);
      handle(msg);
    } catch (err) {
      const id = msg && msg.battle;
      if (id !== undefined) battles.delete(id);
      out({battle: id === undefined ? null : id, type: 'crash', message: String(err && err.message || err)});
    }
  }
});
process.stdin.on('end', () => process.exit(0));
out({type: 'ready', showdown: SHOWDOWN_VERSION, pid: process.pid});
