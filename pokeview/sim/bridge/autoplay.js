'use strict';
// Sides the bridge plays by itself: poke-env's RandomPlayer, whose choice is a function of the
// request and the decision's seed (random_choice.js). A game of two such bots then runs inside
// the bridge from start to end, with no trip to Python and back at every choice: the round trip
// cost more Node time than the choice (a process that waits between reads runs Showdown slower).
//
// Python still reads every step, in the same order, and records each choice the bridge made as
// its own: the bridge marks a side's update with the choice it made and sent (`chosen`), and
// Python checks it against its own random_choice.py before recording it. Where the bridge cannot
// choose (a refusal, the turn limit, a request only poke-env can answer, a side another player
// plays), it leaves that side and every side after it in the step to Python, so the choices
// reach Showdown in the order Python would have sent them.
const {SIDES} = require('./protocol');
const {randomChoice, decisionSeed} = require('./random_choice');
const {outStep, flush} = require('./output');

/** @typedef {import('./messages').Step} Step */
/** @typedef {import('./messages').AutoplaySpec} AutoplaySpec */

class Autoplay {
  /** @param {AutoplaySpec} spec */
  constructor(spec) {
    this.seed = spec.seed;
    this.sides = new Set(spec.sides);
    this.turnLimit = spec.turn_limit;
    // Each side's decisions so far, counted as Python counts them (its decision index).
    /** @type {{[side: string]: number}} */
    this.decisions = {p1: 0, p2: 0};
  }

  /**
   * The choices to make for a step, in the order Python would send them, each chosen side's
   * update marked. Every request Python counts as a decision is counted here, chosen or not.
   * @param {Step} step
   * @param {number} turn  the battle's turn when the step was made
   * @param {boolean} python  an earlier step is waiting on Python: count only
   * @returns {{made: [string, string][], python: boolean}}
   */
  choices(step, turn, python) {
    /** @type {[string, string][]} */
    const made = [];
    if (step.end) return {made, python};
    for (const side of SIDES) {
      const update = step.sides[side];
      if (!update) continue;
      if (update.error) { // a refused choice: Python asks its player again, as one decision
        python = true;
        continue;
      }
      if (!update.request) continue;
      const request = update.requestObject || JSON.parse(update.request);
      if (request.wait) continue;
      const forced = Array.isArray(request.forceSwitch) ? request.forceSwitch.length > 0 : !!request.forceSwitch;
      if (turn >= this.turnLimit && !forced) { // Python ends the game in a tie
        python = true;
        continue;
      }
      const index = this.decisions[side]++;
      if (python || !this.sides.has(side)) {
        python = true;
        continue;
      }
      const started = process.hrtime.bigint();
      let choice = null;
      try {
        choice = randomChoice(request, decisionSeed(this.seed, side, index * 100));
      } catch {
        // a request this does not read: Python's player decides, as it always did
      }
      if (choice === null) {
        python = true;
        continue;
      }
      update.chosen = {choice, ms: Number(process.hrtime.bigint() - started) / 1e6};
      made.push([side, choice]);
    }
    return {made, python};
  }
}

/** @param {Step} step */
function saysSomething(step) {
  return Object.keys(step.sides).length > 0 || step.spectator.length > 0 || step.input.length > 0 || !!step.end;
}

/**
 * A game the bridge plays on by itself: its steps made and not yet answered.
 * @typedef {{hosted: import('./battle').HostedBattle, queue: [Step, number][], n: number,
 *   python: boolean, always: boolean}} PlayingOn
 */

// Games played on wait here, and are played one a turn of the event loop: a command for another
// battle (a model's or a person's choice) then waits for one game at most, not for every game
// started in one read (16 starts come in one).
/** @type {PlayingOn[]} */
const waiting = [];
let scheduled = false;
/** @type {(battle: string, err: unknown) => void} */
let failed = () => {};

/**
 * Who is told when a game played on later throws (the bridge: that battle is gone).
 * @param {(battle: string, err: unknown) => void} handler
 */
function onFailure(handler) {
  failed = handler;
}

/**
 * Answer the steps of a game played on, from the next one, at most `limit` of them: each choice
 * the bridge makes is written as Python would have written it, and the step it makes is queued.
 * @param {PlayingOn} game
 * @param {number} limit
 */
function advance(game, limit) {
  const {hosted, queue} = game;
  for (; game.n < queue.length && limit > 0; game.n++, limit--) {
    const [next, turn] = queue[game.n];
    /** @type {[string, string][]} */
    let made = [];
    if (hosted.autoplay) ({made, python: game.python} = hosted.autoplay.choices(next, turn, game.python));
    if ((game.n === 0 && game.always) || saysSomething(next)) outStep(next);
    for (const [side, choice] of made) {
      const written = hosted.write([`>${side} ${choice}`]);
      queue.push([written, hosted.turn()]);
    }
  }
}

/**
 * Send a command's step to Python and answer it; the rest of the game the bridge plays on by
 * itself waits its turn (`playWaiting`).
 * @param {import('./battle').HostedBattle} hosted
 * @param {Step} step  what the command just written produced
 * @param {boolean} always  send the step even if it says nothing (a start's)
 */
function answer(hosted, step, always) {
  /** @type {PlayingOn} */
  const game = {hosted, queue: [[step, hosted.turn()]], n: 0, python: false, always};
  advance(game, 1);
  if (game.n < game.queue.length) {
    hosted.playingOn = game;
    waiting.push(game);
    if (!scheduled) {
      scheduled = true;
      setImmediate(playWaiting);
    }
  }
}

/**
 * Before a command for this battle is written: what the bridge still had to play of it is
 * played first, so that Showdown gets every choice in the order Python would have sent them.
 * @param {import('./battle').HostedBattle} hosted
 */
function settle(hosted) {
  const game = hosted.playingOn;
  hosted.playingOn = null;
  if (game) advance(game, Infinity);
}

/** @param {import('./battle').HostedBattle} hosted  a battle closed: nothing more is played */
function abandon(hosted) {
  hosted.playingOn = null;
}

function playWaiting() {
  scheduled = false;
  const game = waiting.shift();
  if (game && game.hosted.playingOn === game) { // not settled or closed since
    game.hosted.playingOn = null;
    try {
      advance(game, Infinity);
    } catch (err) {
      failed(game.hosted.id, err);
    }
    // The game goes to Python now, to be recorded while the next one plays.
    flush();
  }
  if (waiting.length && !scheduled) {
    scheduled = true;
    setImmediate(playWaiting);
  }
}

module.exports = {Autoplay, answer, settle, abandon, onFailure};
