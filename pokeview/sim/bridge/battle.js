'use strict';
// One battle hosted in the bridge: Showdown's BattleStream run synchronously, each command's
// output split into the spectator's and each side's lines, words, request and snapshot.
const {need} = require('./packages');
const {SIDES, isNoise} = require('./protocol');
const {SideWords} = require('./words');
const {snapshot} = require('./snapshot');
const {differences} = require('./differences');
const {Autoplay} = require('./autoplay');

const {BattleStream} = need('pokemon-showdown/dist/sim/battle-stream');
const {extractChannelMessages} = need('pokemon-showdown/dist/sim/battle');

/** @typedef {import('./messages').Step} Step */
/** @typedef {Step & {refused?: string | null}} Written  a step, and the refusal write() was asked to note */
/** @typedef {import('./messages').SideUpdate} SideUpdate */
/** @typedef {import('./protocol').SideId} SideId */

class Sink extends BattleStream {
  // Keeps what the simulator emits instead of queueing it for an async reader.
  constructor() {
    super({keepAlive: true});
    /** @type {[string, string][]} */
    this.emitted = [];
  }
  /**
   * @param {string} type
   * @param {string} data
   */
  pushMessage(type, data) {
    this.emitted.push([type, data]);
  }
}

/**
 * How a battle is hosted: `quiet` sends no side (verification needs the spectator log only),
 * `omniscient` sends the omniscient log (exact HP on both sides), `fromInputLog` marks a battle
 * started from an input log, `whole` (for tests) sends every request and state whole, `words`
 * names the sides whose words and state are computed (absent: both), `autoplay` the sides the
 * bridge chooses for itself (autoplay.js).
 * @typedef {{quiet?: boolean, omniscient?: boolean, fromInputLog?: boolean, whole?: boolean,
 *   words?: string[] | null, autoplay?: import('./messages').AutoplaySpec | null}} HostedBattleOptions
 */

class HostedBattle {
  /**
   * @param {string} id
   * @param {HostedBattleOptions} [options]
   */
  constructor(id, {quiet = false, omniscient = false, fromInputLog = false, whole = false, words = null, autoplay = null} = {}) {
    this.id = id;
    this.quiet = quiet; // replays for verification need only the spectator log
    this.omniscient = omniscient; // ...or the omniscient one (exact HP on both sides), for Pokéval
    this.stream = new Sink();
    // A side played by a bot that reads only its request needs no words and no state while the
    // game plays (a @pkmn/client battle, a snapshot and its differences at every step: more Node
    // time than the simulation): its side gets its lines and requests only, and the record
    // derives the rest later, exactly, by playing the same commands again with words on.
    /** @type {{[side: string]: SideWords | null}} */
    this.words = {};
    for (const side of SIDES) this.words[side] = !words || words.includes(side) ? new SideWords(side) : null;
    this.inputSent = 0;
    this.ended = false;
    // Each side's last request and snapshot, which the next ones are sent as differences from.
    // A battle started from an input log sends its first step whole and keeps nothing from it:
    // a resumed game does not record that step (its history is in the record already).
    // `whole` (for tests) sends every one whole, as before format 4.
    // A request kept may be Showdown's own object (`live`): its text is kept beside it, to read
    // what was sent if Showdown changes that object and sends it again.
    /** @type {{[side: string]: {request?: object, text?: string, live?: boolean, state?: object}}} */
    this.sent = {p1: {}, p2: {}};
    this.keepSent = !fromInputLog;
    this.whole = whole;
    this.autoplay = autoplay ? new Autoplay(autoplay) : null;
    /** @type {import('./autoplay').PlayingOn | null} what the bridge still plays of it by itself */
    this.playingOn = null;
  }

  /** The battle's turn now (0 before it starts). */
  turn() {
    return this.stream.battle ? this.stream.battle.turn : 0;
  }

  /**
   * @param {SideId} side
   * @param {string[]} lines
   * @param {string[]} text
   * @param {string | null} request  Showdown's JSON text
   * @param {string | undefined} error
   * @param {object | null} state
   * @param {object | null} [live]  Showdown's object for `request`, when it is known to be the one
   *   sent as that text: used as it is instead of parsing the text it was just stringified to
   * @returns {SideUpdate}
   */
  sideUpdate(side, lines, text, request, error, state, live = null) {
    /** @type {SideUpdate} */
    const update = {lines, text, request, error: error || null, state: state || null};
    const sent = this.sent[side];
    if (this.whole) return update;
    if (request) {
      const now = live || JSON.parse(request);
      update.requestObject = now; // for the bridge's own choice (autoplay.js), not sent
      let before = sent.request;
      // Showdown changes a request it sent only to send it again (a choice it refused, with what
      // it learnt): then, or when it is not sure which object was sent, what was sent is read
      // from its text.
      if (before && sent.live && (!live || before === now)) before = JSON.parse(/** @type {string} */ (sent.text));
      if (before) update.requestDelta = differences(before, now);
      if (this.keepSent) Object.assign(sent, {request: now, text: request, live: !!live});
    }
    if (state && sent.state) {
      update.stateDelta = differences(sent.state, state);
      update.state = null;
    }
    if (state && this.keepSent) sent.state = state;
    return update;
  }

  /**
   * @param {string[]} lines
   * @param {boolean} [noteRefusals]
   * @returns {Written}
   */
  write(lines, noteRefusals = false) {
    // Runs commands synchronously and returns the step message for what they produced.
    this.stream._writeLines(lines.join('\n'));
    if (this.stream.battle) this.stream.battle.sendUpdates();
    const emitted = this.stream.emitted.splice(0);
    /** @type {Written} */
    const step = {battle: this.id, type: 'step', sides: {}, spectator: [], input: [], end: null};
    /** @type {{[side: string]: string[]}} */
    const sideLines = {p1: [], p2: []};
    /** @type {{[side: string]: string}} */
    const requests = {};
    /** @type {{[side: string]: string}} */
    const errors = {};
    /** @type {{[side: string]: number}} */
    const requestsSent = {p1: 0, p2: 0};
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
        if (body.startsWith('|request|')) {
          requests[side] = body.slice(9);
          requestsSent[side]++;
        }
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
        // The object Showdown stringified this request from, when it sent one request this step
        // and has made none since (its side's active request, the requests all sent).
        const live = request && requestsSent[side] === 1 && battle && battle.sentRequests
          ? battle.getSide(side).activeRequest : null;
        const words = this.words[side];
        if (!words) { // no words, no state: only what the side's player reads
          step.sides[side] = this.sideUpdate(side, lines, [], request, errors[side], null, live);
          continue;
        }
        const text = words.render(lines); // first: the snapshot reads what it learnt
        // A state at every step the side saw something (and at each request that asks), so a
        // viewer reads what the side knew at any moment from the bridge alone (docs/record.md).
        // (None before both players have joined: a side is known only once its foe is.)
        const own = battle && battle.getSide(side);
        const asked = request && own && own.activeRequest && !own.activeRequest.wait;
        const known = own && own.foe && (asked || lines.length);
        const state = known ? snapshot(battle, side, words.battle) : null;
        step.sides[side] = this.sideUpdate(side, lines, text, request, errors[side], state, live);
      }
      this.keepSent = true;
    } else {
      step.sides = {};
    }
    if (noteRefusals) step.refused = Object.values(errors)[0] || null;
    if (battle && (end || (battle.ended && !this.ended))) {
      this.ended = true;
      const winner = battle.winner || '';
      const winnerSide = SIDES.find((s) => battle.getSide(s).name === winner) || null;
      step.end = {winner: winnerSide, turns: battle.turn};
    }
    return step;
  }

  /**
   * @param {string[]} lines
   * @returns {Step}
   */
  writeUntilRefused(lines) {
    // Like Pokéval's oracle: line by line, stopping at the first choice Showdown refuses.
    /** @type {Step} */
    const step = {battle: this.id, type: 'step', sides: {}, spectator: [], input: [], end: null, stopped: null};
    for (const [n, line] of lines.entries()) {
      this.stream.emitted.length = 0;
      const part = this.write([line], true);
      step.spectator.push(...part.spectator);
      step.end = part.end || step.end;
      if (part.refused) {
        step.stopped = {line: n + 1, input: line, error: part.refused};
        break;
      }
    }
    return step;
  }

  crashOnNextChoice() {
    // For tests only: the next choice throws inside the simulator.
    const battle = this.stream.battle;
    if (battle) battle.choose = () => { throw new Error('test crash'); };
  }
}

module.exports = {HostedBattle};
