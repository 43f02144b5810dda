'use strict';
// A game of two bots (poke-env's random, or its max-damage and heuristic: baseline_bots.js)
// played from start to end with nothing sent per step: Showdown's requests are read as its own
// objects and no step is split into sides, worded, diffed or written (together half again the
// simulation's own CPU). Python gets one `played` reply: the
// input log, the spectator log, the end and each decision's time; the record derives every
// step from the input log when first read, by playing the game again the usual way
// (pokeview/battle/derive.py), exactly, as the game is deterministic.
//
// Where the usual way would ask Python (the turn limit, a request the bot does not read, a
// refused choice of max-damage or heuristic, an invalid one), this stops and says so (`end`
// null): Python then plays the game the usual way, from its start. A random bot's choice refused
// as unavailable (a switch out of a trap it could not see) comes with the request as it is, from
// which Python's player draws again with the next try's seed, as this does here.
const {need} = require('./packages');
const {SIDES, isNoise} = require('./protocol');
const {randomChoice, decisionSeed} = require('./random_choice');
const {baselineChoice} = require('./baseline_bots');
const {View, Unread} = require('./poke_env_view');
const {out} = require('./output');

const {BattleStream} = need('pokemon-showdown/dist/sim/battle-stream');
const {extractChannelMessages} = need('pokemon-showdown/dist/sim/battle');

// Why a game stopped at its Team Preview: Python plays no further game of its format whole
// (pokeview/battle/loop.py, TEAM_PREVIEW), as none of them would get past it here.
const TEAM_PREVIEW = 'team preview';

/** @typedef {import('./messages').AutoplaySpec} AutoplaySpec */
/** @typedef {import('./messages').PlayedReply} PlayedReply */

class Quiet extends BattleStream {
  // Keeps nothing Showdown emits but the sign of a refused choice, and whether it was refused
  // as unavailable (then with the side's request as it is).
  constructor() {
    super({keepAlive: true});
    /** @type {'unavailable' | 'invalid' | null} */
    this.refused = null;
  }
  /**
   * @param {string} type
   * @param {string} data
   */
  pushMessage(type, data) {
    if (type !== 'sideupdate' || !data.startsWith('|error|', 3)) return;
    this.refused = data.startsWith('[Unavailable choice]', 10) ? 'unavailable' : 'invalid';
  }
}

/**
 * A side of poke-env's bots reads each request it is sent, one that asks it to wait too, after
 * the lines before it (pokeview/battle/view.py): a request that asks for a choice is read when
 * the choice is made, one that asks to wait here, before the next choice is made.
 * @param {any} game
 * @param {{[side: string]: string}} bots
 * @param {{[side: string]: View}} views
 */
function readWaits(game, bots, views) {
  for (const side of SIDES) {
    const request = game.getSide(side).activeRequest;
    if (bots[side] === 'random' || !request || !request.wait || views[side].request === request) continue;
    views[side].follow(game.log);
    views[side].parseRequest(request);
  }
}

/**
 * Play a game through; its reply.
 * @param {string} battle
 * @param {string[]} start  the commands that start it (start.js)
 * @param {AutoplaySpec} spec
 * @returns {PlayedReply}
 */
function playWhole(battle, start, spec) {
  const stream = new Quiet();
  stream._writeLines(start.join('\n'));
  const game = stream.battle;
  /** @type {{[side: string]: number}} */
  const decisions = {p1: 0, p2: 0};
  /** @type {[string, number][]} */
  const made = [];
  /** @param {string} why */
  const stopped = (why) => ({battle, type: /** @type {'played'} */ ('played'), input: [], spectator: [], end: null, decisions: [], stopped: why});
  // Each side's choices Showdown refused as unavailable for its open decision.
  /** @type {{[side: string]: string[]}} */
  const refused = {p1: [], p2: []};
  const bots = {p1: 'random', p2: 'random', ...(spec.bots || {})};
  /** @type {{[side: string]: View}} */
  const views = {p1: new View('p1'), p2: new View('p2')};
  if (game && (bots.p1 !== 'random' || bots.p2 !== 'random')) {
    // poke-env's bots are copied for generation 9 singles
    if (game.gen !== 9 || game.gameType !== 'singles') return stopped('a format the bots are not copied for');
  }
  while (game && !game.ended) {
    // The first side with a request open, as the usual way answers a step's requests: p1's,
    // then p2's (a choice that lets the battle go on is answered before the requests it makes).
    // (A refused side tries again at once; the usual way sends the other's choice first, but
    // Showdown logs a turn's choices in side order when both are in.)
    const side = SIDES.find((s) => {
      const own = game.getSide(/** @type {any} */ (s));
      return own.activeRequest && !own.activeRequest.wait && !own.isChoiceDone();
    });
    if (!side) return stopped('no request to answer');
    const request = /** @type {any} */ (game.getSide(/** @type {any} */ (side)).activeRequest);
    if (request.teamPreview) return stopped(TEAM_PREVIEW);
    const forced = Array.isArray(request.forceSwitch) ? request.forceSwitch.length > 0 : !!request.forceSwitch;
    if (game.turn >= spec.turn_limit && !forced) return stopped('the turn limit');
    const bot = bots[side];
    const tries = refused[side].length;
    if (tries && bot !== 'random') return stopped('a refused choice');
    const started = process.hrtime.bigint();
    const index = tries ? decisions[side] - 1 : decisions[side]++;
    const seed = decisionSeed(spec.seed, side, index * 100 + tries);
    let choice = null;
    try {
      readWaits(game, bots, views); // (those the last choice brought)
      choice = bot === 'random' ? randomChoice(request, seed) :
        baselineChoice(/** @type {any} */ (bot), views[side], game.log, request, seed);
    } catch (err) {
      // a request the bot does not read (the random bot's port says so by any error): Python's
      // player decides; anything else from the copy of poke-env's bots is a crash
      if (!(err instanceof Unread) && bot !== 'random') throw err;
      return stopped(`a request the bot does not read${err instanceof Unread ? ` (${err.message})` : ''}`);
    }
    if (choice === null) return stopped('a request the bot does not read');
    // (not from a request as it is; else the bot's player falls back on another: bots.py)
    if (refused[side].includes(choice)) return stopped('a refused choice drawn again');
    if (!tries) made.push([side, Number(process.hrtime.bigint() - started) / 1e6]);
    stream._writeLines(`>${side} ${choice}`);
    if (stream.refused === 'invalid') return stopped('a refused choice');
    if (stream.refused) {
      stream.refused = null;
      refused[side].push(choice); // (the request the next try reads is the one it came with)
    } else {
      refused[side] = [];
    }
  }
  if (!game) return stopped('no battle');
  const log = extractChannelMessages(game.log.join('\n'), [0])[0].filter((line) => !isNoise(line));
  const winner = SIDES.find((s) => game.getSide(/** @type {any} */ (s)).name === game.winner) || null;
  return {battle, type: 'played', input: game.inputLog, spectator: log, end: {winner, turns: game.turn}, decisions: made, stopped: null};
}

// Games wait here and are played one a turn of the event loop, as autoplay.js's are: a command
// for another battle then waits for one game at most.
/** @type {[string, string[], AutoplaySpec][]} */
const waiting = [];
let scheduled = false;

function playNext() {
  scheduled = false;
  const next = waiting.shift();
  if (next) {
    const [battle, start, spec] = next;
    try {
      out(playWhole(battle, start, spec));
    } catch (err) {
      out({battle, type: 'crash', message: String((err instanceof Error && err.message) || err)});
    }
  }
  if (waiting.length && !scheduled) {
    scheduled = true;
    setImmediate(playNext);
  }
}

/**
 * Play a game through on a later turn of the event loop, and answer with its `played` reply.
 * @param {string} battle
 * @param {string[]} start
 * @param {AutoplaySpec} spec
 */
function playWholeLater(battle, start, spec) {
  waiting.push([battle, start, spec]);
  if (!scheduled) {
    scheduled = true;
    setImmediate(playNext);
  }
}

module.exports = {playWhole, playWholeLater};
