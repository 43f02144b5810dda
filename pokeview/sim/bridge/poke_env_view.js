'use strict';
// One side's poke-env `Battle`, as far as MaxBasePowerPlayer and SimpleHeuristicsPlayer read it,
// kept in the bridge from the side's protocol lines and its request, so a game of those bots can
// be played whole (whole.js, baseline_bots.js). Each rule follows poke-env's own
// (poke_env/battle/abstract_battle.py, battle.py and pokemon.py), quirks included: Transform,
// its repairs of an illusion, formes kept across a switch. Where poke-env would do what this does
// not follow (a line it does not know, an error it would raise), `Unread` is thrown, and the game
// is played the usual way, by poke-env itself.
const {readFileSync} = require('node:fs');
const {join} = require('node:path');

/**
 * poke-env's generation 9 data, as its bots read it (pokeview/players/poke_env_data.py).
 * @type {{pokedex: {[id: string]: {types: string[], baseStats: {[stat: string]: number}, baseSpecies: string,
 *   ability?: string}},
 *   moves: {[id: string]: any}, typeChart: {[defending: string]: {[attacking: string]: number}},
 *   types: string[], sideConditions: string[]}}
 */
const DATA = JSON.parse(readFileSync(join(__dirname, 'poke_env_gen9.json'), 'utf8'));

class Unread extends Error {}

/** @param {unknown} why @returns {never} */
function unread(why) {
  throw new Unread(String(why));
}

// The lines poke-env reads and changes nothing this view keeps, and those pokeview does not pass
// it (pokeview/battle/view.py). A line of any other kind stops the game (poke-env would raise).
const INERT = new Set([
  // poke-env's MESSAGES_TO_IGNORE
  '-anim', '-block', '-burst', '-center', '-combine', '-crit', '-fail', '-fieldactivate', '-hint',
  '-hitcount', '-miss', '-notarget', '-nothing', '-ohko', '-resisted', '-supereffective',
  '-waiting', '-zbroken', 'J', 'L', 'askreg', 'badge', 'c', 'chat', 'crit', 'debug', 'deinit',
  'gametype', 'hidelines', 'html', 'immune', 'inactiveoff', 'init', 'j', 'join', 'l', 'leave',
  'n', 'name', 'rated', 'resisted', 'sentchoice', 'split', 'supereffective', 'teampreview',
  'upkeep', 'uhtml', 'zbroken', '',
  // read by poke-env for what neither bot looks at (moves, abilities, items, weather, fields)
  'move', 'cant', 'turn', '-weather', '-ability', '-activate', 'rule', '-endability', '-enditem',
  '-fieldend', '-fieldstart', '-item', '-mustrecharge', '-prepare', '-singleturn', '-singlemove',
  'clearpoke', 'gen', 'tier', 'inactive', 'start', 'teamsize', 'message', '-message', '-immune',
  'title', 'raw',
  // pokeview's own skips, and the end
  'c:', 't:', 'expire', 'uhtmlchange', 'tempnotify', 'tempnotifyoff', 'request', 'player', 'win',
  'tie',
]);
// Lines of those kinds on which poke-env raises (a move it does not know called by another, an
// item's or ability's line of a shape it does not read): the Python game would fail there.
const ITEM_CAUSES = new Set([
  '[from] ability: Frisk', '[from] ability: Pickpocket', '[from] ability: Magician', '[from] move: Thief',
  '[from] move: Covet',
]);
/** @type {[string, (parts: string[]) => boolean][]} */
const RAISES = [
  ['move', (parts) => /^\[from\] ?move: (?!Sleep Talk$)/.test(parts[parts.length - 1])],
  ['-activate', (parts) => parts[3] === 'item: Leppa Berry'],
  ['-item', (parts) => parts.length === 6 && !ITEM_CAUSES.has(parts[4])],
];
const STATUSES = new Set(['BRN', 'FNT', 'FRZ', 'PAR', 'PSN', 'SLP', 'TOX']);
const TYPES = new Set(DATA.types);
const SIDE_CONDITIONS = new Set(DATA.sideConditions);
const BOOSTED = ['accuracy', 'atk', 'def', 'evasion', 'spa', 'spd', 'spe'];

/** poke-env's to_id_str: str.isalnum() characters, lowercased. @param {string} name */
function toId(name) {
  let id = '';
  for (const char of name) if (/^[\p{L}\p{N}]$/u.test(char)) id += char;
  return id.toLowerCase();
}

/** PokemonType.from_name @param {string} name */
function typeOf(name) {
  const type = name === '???' ? 'THREE_QUESTION_MARKS' : name.toUpperCase();
  if (!TYPES.has(type)) unread(`type ${name}`);
  return type;
}

/** @param {string} species */
function dexEntry(species) {
  const entry = DATA.pokedex[toId(species)];
  if (!entry) unread(`species ${species}`);
  return entry;
}

/** A Pokémon as poke-env's view keeps it (poke_env/battle/pokemon.py), as far as the bots read it. */
class Mon {
  constructor() {
    this.species = '';
    this.lastDetails = ''; // (details of '' are skipped, as poke-env's are)
    /** @type {{[stat: string]: number}} */ this.dexStats = {};
    /** @type {{[stat: string]: number} | null} */ this.tempBaseStats = null; // Transform's
    /** @type {string} */ this.type1 = '';
    /** @type {string | null} */ this.type2 = null;
    /** @type {string[]} */ this.tempTypes = [];
    this.terastallized = false;
    /** @type {string | null} */ this.teraType = null;
    /** @type {{[stat: string]: number}} */ this.boosts = Object.fromEntries(BOOSTED.map((s) => [s, 0]));
    this.hp = 0;
    this.maxHp = 0;
    /** @type {string | null} */ this.status = null;
    this.active = false;
    /** @type {{[stat: string]: number}} */ this.stats = {};
    this.illusion = false; // poke-env's `_ability == "illusion"`
    this.abilityKnown = false;
    /** @type {any} */ this.lastRequest = null; // its part of the side's last request
  }

  /** Pokemon._update_from_pokedex @param {string} species @param {boolean} store */
  fromPokedex(species, store) {
    const entry = dexEntry(species);
    if (store) this.species = toId(species);
    this.dexStats = entry.baseStats;
    if (entry.ability !== undefined) { // a species of one ability: poke-env knows it
      this.abilityKnown = true;
      this.illusion = entry.ability === 'illusion';
    }
    this.type1 = typeOf(entry.types[0]);
    this.type2 = entry.types.length === 1 ? null : typeOf(entry.types[1]);
  }

  /** Pokemon._update_from_details @param {string} details */
  fromDetails(details) {
    if (details === this.lastDetails) return;
    this.lastDetails = details;
    const parts = details.replaceAll(', shiny', '').split(', ');
    const tera = parts.findIndex((part) => part.startsWith('tera:'));
    if (tera >= 0) {
      this.teraType = typeOf(parts[tera].slice(5));
      parts.splice(tera, 1);
    }
    // Two or three parts leave the species as written, compared so with the id kept.
    const species = parts.length === 2 || parts.length === 3 ? parts[0] : toId(parts[0]);
    if (species !== this.species) this.fromPokedex(species, true);
  }

  /** Pokemon.set_hp_status @param {string} hpStatus */
  setHpStatus(hpStatus) {
    if (hpStatus === '0 fnt') {
      this.hp = 0;
      this.status = 'FNT';
      return;
    }
    let hp = hpStatus;
    if (hpStatus.includes(' ')) {
      const parts = hpStatus.split(' ');
      if (parts.length !== 2) unread(`hp ${hpStatus}`);
      hp = parts[0];
      this.status = parts[1].toUpperCase();
      if (!STATUSES.has(this.status)) unread(`status ${hpStatus}`);
    } else {
      this.status = null;
    }
    const numbers = [...hp].filter((c) => '0123456789/'.includes(c)).join('').split('/');
    if (numbers.length !== 2 || !numbers[0] || !numbers[1]) unread(`hp ${hpStatus}`);
    this.hp = Number(numbers[0]);
    this.maxHp = Number(numbers[1]);
  }

  /** Pokemon.base_stats */
  get baseStats() {
    return this.tempBaseStats || this.dexStats;
  }

  get fainted() {
    return this.status === 'FNT';
  }

  get hpFraction() {
    return this.hp ? this.hp / this.maxHp : 0;
  }

  /** Pokemon.type_1 and type_2, the None left out @returns {string[]} */
  get types() {
    if (this.terastallized && this.teraType !== null) return [this.teraType];
    if (this.tempTypes.length) return this.tempTypes.slice(0, 2);
    return this.type2 === null ? [this.type1] : [this.type1, this.type2];
  }

  /** Pokemon.damage_multiplier for an attacking type @param {string} attacking */
  damageMultiplier(attacking) {
    const [type1, type2] = this.types;
    const odd = ['THREE_QUESTION_MARKS', 'STELLAR'];
    if (odd.includes(attacking) || odd.includes(type1)) return 1;
    const chart = DATA.typeChart;
    if (!chart[type1] || (type2 !== undefined && !chart[type2])) unread(`a type chart row of ${this.types}`);
    const first = chart[type1][attacking];
    return type2 === undefined ? first : first * chart[type2][attacking];
  }

  clearBoosts() {
    for (const stat of BOOSTED) this.boosts[stat] = 0;
  }

  switchOut() {
    this.active = false;
    this.clearBoosts();
    this.tempTypes = [];
    this.tempBaseStats = null;
  }

  /** Pokemon.update_from_request @param {any} own  the Pokémon's part of its side's request */
  fromRequest(own) {
    this.active = !!own.active;
    if (!this.abilityKnown) {
      this.abilityKnown = true;
      this.illusion = toId(String(own.baseAbility)) === 'illusion';
    }
    this.lastRequest = own;
    this.setHpStatus(String(own.condition));
    this.fromDetails(String(own.details));
    if (own.stats) Object.assign(this.stats, own.stats);
  }

  /** Pokemon.was_illusioned: what it was last told, then switched out */
  wasIllusioned() {
    this.hp = 0;
    this.maxHp = 0;
    this.status = null;
    const last = this.lastRequest;
    this.lastRequest = null;
    if (last) this.fromRequest(last);
    this.switchOut();
  }

  /** Pokemon.transform: the other's species' stats and types, and its boosts @param {Mon} into */
  transform(into) {
    const entry = dexEntry(into.species);
    this.tempBaseStats = entry.baseStats;
    this.tempTypes = entry.types.map(typeOf);
    this.boosts = {...into.boosts};
  }

  /** Pokemon.boost @param {string} stat @param {number} amount */
  boost(stat, amount) {
    if (!Object.hasOwn(this.boosts, stat)) unread(`boost ${stat}`);
    this.boosts[stat] = Math.max(-6, Math.min(6, this.boosts[stat] + amount));
  }

  /** Pokemon.identifies_as, for a species or name @param {string} name */
  identifiesAs(name) {
    const base = toId(dexEntry(this.species).baseSpecies);
    return base === toId(name) || name.split('-').some((part) => toId(part) === base);
  }
}

/** @param {string} text */
function integer(text) {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) unread(`a number ${text}`);
  return Number(text);
}

class View {
  /** @param {string} side  p1 or p2 */
  constructor(side) {
    this.role = side;
    /** @type {Map<string, Mon>} */ this.team = new Map();
    /** @type {Map<string, Mon>} */ this.opponents = new Map();
    // the side conditions' names (the bots ask only which there are, not their layers or turns)
    /** @type {Set<string>} */ this.sideConditions = new Set();
    /** @type {Set<string>} */ this.opponentConditions = new Set();
    this.read = 0; // how many of the battle's log lines this side has read
    /** @type {any} */ this.request = null;
  }

  /** @param {Map<string, Mon>} team */
  static firstActive(team) {
    for (const mon of team.values()) if (mon.active) return mon;
    return null;
  }

  get active() {
    return View.firstActive(this.team);
  }

  get opponent() {
    return View.firstActive(this.opponents);
  }

  /** The battle's log from where this side left it, as its own channel reads it. @param {string[]} log */
  follow(log) {
    for (let n = this.read; n < log.length; n++) {
      const line = log[n];
      if (line.startsWith('|split|')) {
        // the secret line for its own side, the public one for the other
        this.line(log[line.slice(7) === this.role ? n + 1 : n + 2]);
        n += 2;
      } else {
        this.line(line);
      }
    }
    this.read = log.length;
  }

  /** AbstractBattle.get_pokemon's look-up: for its own side's active Pokémon, Illusion's turn
   * (an illusion poke-env repaired from a request is still named by its disguise)
   * @param {string} ident */
  lookup(ident) {
    const key = View.key(ident);
    const named = this.team.get(key);
    if (named && ident[3] !== ' ' && key.slice(0, 2) === this.role) {
      const believed = this.active;
      if (believed && believed !== named) {
        if (named.illusion) return named;
        if (believed.illusion) return believed;
      }
    }
    return named || this.opponents.get(key) || null;
  }

  /** AbstractBattle.get_pokemon with no details: a Pokémon first seen is named by its species
   * @param {string} ident */
  known(ident) {
    const key = View.key(ident);
    const found = this.lookup(ident);
    if (found) return found;
    const team = key.slice(0, 2) === this.role ? this.team : this.opponents;
    if (team.size >= 6) unread(`a seventh Pokémon ${ident}`);
    const mon = new Mon();
    mon.fromPokedex(key.slice(4), true);
    team.set(key, mon);
    return mon;
  }

  /** `p1a: Name` as poke-env keys it, `p1: Name` @param {string} ident */
  static key(ident) {
    if (ident.length < 4) unread(`ident ${ident}`);
    return ident[3] !== ' ' ? ident.slice(0, 2) + ident.slice(3) : ident;
  }

  /** AbstractBattle.get_pokemon, which adds a Pokémon first seen @param {string} ident @param {string} details */
  mon(ident, details) {
    const key = View.key(ident);
    const found = this.lookup(ident);
    if (found) return found;
    const team = key.slice(0, 2) === this.role ? this.team : this.opponents;
    View.add(team, key, details);
    const mon = new Mon();
    mon.fromDetails(details);
    team.set(key, mon);
    return mon;
  }

  /** What get_pokemon checks before adding a Pokémon seen first with its details; poke-env would
   * rename a Pokémon of the same species instead, or raise.
   * @param {Map<string, Mon>} team @param {string} key @param {string} details */
  static add(team, key, details) {
    const name = details.split(', ')[0];
    for (const mon of team.values()) if (mon.identifiesAs(name)) unread(`a Pokémon renamed ${key}`);
    if (team.size >= 6) unread(`a seventh Pokémon ${key}`);
  }

  /** AbstractBattle.parse_message, for what the bots read @param {string} line */
  line(line) {
    const parts = line.split('|');
    if (parts.length < 2) return;
    const kind = parts[1];
    if (RAISES.some(([k, test]) => k === kind && test(parts))) unread(line);
    if (INERT.has(kind)) return;
    const at = (/** @type {number} */ n) => (parts.length > n ? parts[n] : unread(`a short line ${line}`));
    switch (kind) {
      case 'switch':
      case 'drag': {
        const [ident, details, hpStatus] = [at(2), at(3), at(4)];
        const team = ident.slice(0, 2) === this.role ? this.team : this.opponents;
        const out = View.firstActive(team);
        if (out) out.switchOut();
        const mon = this.mon(ident, details);
        mon.active = true;
        mon.fromDetails(details);
        mon.setHpStatus(hpStatus);
        return;
      }
      case '-damage':
      case '-heal':
      case '-sethp':
        this.known(at(2)).setHpStatus(at(3));
        return;
      case 'faint': {
        const mon = this.known(at(2));
        mon.hp = 0;
        mon.status = 'FNT';
        mon.tempTypes = []; // its effects end, a type change with them
        mon.tempBaseStats = null;
        return;
      }
      case '-boost':
      case '-unboost': {
        const amount = integer(at(4));
        this.known(at(2)).boost(at(3), kind === '-boost' ? amount : -amount);
        return;
      }
      case '-setboost': {
        const mon = this.known(at(2));
        const [stat, amount] = [at(3), integer(at(4))];
        if (Math.abs(amount) > 6 || !Object.hasOwn(mon.boosts, stat)) unread(line);
        mon.boosts[stat] = amount;
        return;
      }
      case '-clearboost':
        this.known(at(2)).clearBoosts();
        return;
      case '-clearallboost':
        for (const mon of [this.active, this.opponent]) if (mon) mon.clearBoosts();
        return;
      case '-clearnegativeboost':
      case '-clearpositiveboost': {
        const boosts = this.known(at(2)).boosts;
        for (const s of BOOSTED) if (kind === '-clearnegativeboost' ? boosts[s] < 0 : boosts[s] > 0) boosts[s] = 0;
        return;
      }
      case '-invertboost': {
        const boosts = this.known(at(2)).boosts;
        for (const s of BOOSTED) boosts[s] = -boosts[s] || 0;
        return;
      }
      case '-copyboost': {
        const source = this.known(at(2));
        this.known(at(3)).boosts = {...source.boosts};
        return;
      }
      case '-swapboost': {
        const [source, target, stats] = [this.known(at(2)), this.known(at(3)), at(4)];
        const swapped = stats.includes('[from]') ? BOOSTED : stats.split(', ');
        for (const s of swapped) {
          if (!Object.hasOwn(source.boosts, s)) unread(line);
          [source.boosts[s], target.boosts[s]] = [target.boosts[s], source.boosts[s]];
        }
        return;
      }
      case '-start': {
        const mon = this.known(at(2));
        const effect = at(3);
        if (effect === 'typechange') {
          const types = parts.length > 5 && parts[5].startsWith('[of] ') ?
            this.known(parts[5].slice(5)).types.join('/') : at(4);
          mon.tempTypes = types.split('/').map(typeOf);
        } else if (effect === 'Mimic' || effect.toUpperCase() === 'DYNAMAX') {
          unread(line);
        }
        return;
      }
      case '-end':
        if (at(3).replace(/^(item|move|ability): /, '').toUpperCase() === 'TYPECHANGE') this.known(at(2)).tempTypes = [];
        return;
      case '-terastallize': {
        if (parts.length !== 4) unread(line);
        const mon = this.known(at(2));
        mon.teraType = typeOf(at(3));
        mon.terastallized = true;
        mon.tempTypes = [];
        return;
      }
      case 'replace': { // Battle.end_illusion
        const [ident, details] = [at(2), at(3)];
        const illusioned = ident.slice(0, 2) === this.role ? this.active : this.opponent;
        if (!illusioned) unread(line);
        const illusionist = this.mon(ident, details);
        if (illusionist === illusioned) return;
        illusionist.active = true;
        illusionist.fromDetails(details);
        // (its status is set to the other's, then cleared by the hp's setting, as in poke-env)
        illusionist.setHpStatus(`${illusioned.hp}/${illusioned.maxHp}`);
        illusioned.wasIllusioned();
        return;
      }
      case '-transform':
        this.known(at(2)).transform(this.known(at(3)));
        return;
      case '-formechange':
      case 'detailschange':
        this.known(at(2)).fromPokedex(at(3).split(',')[0], false);
        return;
      case '-status': {
        const status = at(3).toUpperCase();
        if (!STATUSES.has(status)) unread(line);
        this.known(at(2)).status = status;
        return;
      }
      case '-curestatus': {
        const mon = this.known(at(2));
        const status = at(3); // (none named: poke-env cures nothing)
        if (status) {
          if (!STATUSES.has(status.toUpperCase())) unread(line);
          if (status.toUpperCase() === mon.status) mon.status = null;
        }
        return;
      }
      case '-cureteam':
        for (const mon of (at(2).slice(0, 2) === this.role ? this.team : this.opponents).values()) {
          if (!mon.fainted) mon.status = null;
        }
        return;
      case '-sidestart':
      case '-sideend': {
        const conditions = at(2).slice(0, 2) === this.role ? this.sideConditions : this.opponentConditions;
        const name = at(3).replaceAll('move: ', '').replace(/ /g, '_').replace(/-/g, '_').toUpperCase();
        const condition = SIDE_CONDITIONS.has(name) ? name : 'UNKNOWN';
        if (kind === '-sidestart') {
          conditions.add(condition);
        } else if (condition !== 'UNKNOWN') { // (poke-env keeps an unknown one for good)
          if (!conditions.has(condition)) unread(line); // (its pop would raise)
          conditions.delete(condition);
        }
        return;
      }
      case '-swapsideconditions':
        [this.sideConditions, this.opponentConditions] = [this.opponentConditions, this.sideConditions];
        return;
      default:
        // -mega, -primal, -zpower, swap, poke, and what poke-env does not know
        unread(line);
    }
  }

  /** Battle.parse_request, as far as the bots read it @param {any} request */
  parseRequest(request) {
    this.request = request;
    const side = request.side;
    // AbstractBattle._update_team_from_request: the request says which Pokémon are active; one
    // active only in the lines was an illusion, and is repaired
    /** @type {Mon[]} */ const falselyActive = [];
    /** @type {Mon[]} */ const trulyActive = [];
    for (const own of side.pokemon) {
      const key = View.key(String(own.ident));
      let mon = this.team.get(key);
      if (!mon) {
        View.add(this.team, key, String(own.details));
        mon = new Mon();
        mon.fromDetails(String(own.details));
        mon.fromRequest(own);
        this.team.set(key, mon);
      }
      if (own.active && !mon.active) trulyActive.push(mon);
      else if (!own.active && mon.active) falselyActive.push(mon);
    }
    for (const mon of falselyActive) mon.wasIllusioned();
    for (const mon of trulyActive) mon.active = true;
    for (const own of side.pokemon) /** @type {Mon} */ (this.team.get(View.key(String(own.ident)))).fromRequest(own);
  }
}

module.exports = {View, Mon, Unread, unread, DATA, typeOf};
