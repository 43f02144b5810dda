'use strict';
// pokeview's Node bridge: one long-lived process hosting many Showdown battles.
// Python speaks to it in JSON lines on stdin/stdout (see pokeview/sim/client.py).
// Each command that moves a battle answers with one "step" message holding everything the
// simulator emitted for it: each side's protocol lines, that side's battle-log words (rendered by
// @pkmn/view's LogFormatter from that side's perspective), its request and any refusal, plus the
// new spectator and input-log lines. A throw inside one battle ends that battle only.
//
// This file reads stdin and dispatches each op; the parts are in ./bridge/: battle.js (one
// hosted battle), start.js (the commands that start one), words.js (a side's battle-log words),
// snapshot.js (what a side knows at a request), autoplay.js and whole.js (games of random bots
// the bridge plays by itself), follow.js (a replay log, for importing it),
// lines.js and output.js (JSON lines in and out, shared with the search host, ../search.js).
const packages = require('./bridge/packages');

const modulesDir = process.argv[2];
if (!modulesDir) {
  process.stderr.write('usage: node bridge.js NODE_PROJECT_DIR\n');
  process.exit(2);
}
packages.open(modulesDir); // before the parts below, which load the packages as they load

const {HostedBattle} = require('./bridge/battle');
const {startCommands} = require('./bridge/start');
const {follow} = require('./bridge/follow');
const {out} = require('./bridge/output');
const {answer, settle, abandon, onFailure} = require('./bridge/autoplay');
const {playWholeLater} = require('./bridge/whole');
const {readMessages} = require('./bridge/lines');

const SHOWDOWN_VERSION = packages.need('pokemon-showdown/package.json').version;

// Ops only tests may send, named in POKEVIEW_TEST_SWITCHES (comma- or space-separated);
// without it they are refused like any unknown op.
const testSwitches = new Set((process.env.POKEVIEW_TEST_SWITCHES || '').split(/[\s,]+/).filter(Boolean));

/** @typedef {import('./bridge/messages').Command} Command */

/** @type {Map<string, InstanceType<typeof HostedBattle>>} */
const battles = new Map();

/** @param {string} id */
function hostedBattle(id) {
  const hosted = battles.get(id);
  if (!hosted) throw new Error(`no battle ${id}`);
  return hosted;
}

/** @param {Command} msg */
function handle(msg) {
  const id = /** @type {string} */ (msg.battle); // every op but info names its battle
  switch (msg.op) {
    case 'info':
      out({type: 'info', showdown: SHOWDOWN_VERSION, battles: battles.size});
      return;
    case 'start': {
      if (battles.has(id)) throw new Error(`battle ${id} exists`);
      const lines = startCommands(msg);
      if (msg.autoplay && msg.autoplay.whole) { // played through, one reply at its end
        playWholeLater(id, lines, msg.autoplay);
        return;
      }
      const hosted = new HostedBattle(id, {
        quiet: !!msg.quiet, omniscient: !!msg.omniscient, fromInputLog: !!msg.inputlog, whole: !!msg.whole,
        words: msg.words || null, autoplay: msg.autoplay || null,
      });
      battles.set(id, hosted);
      if (msg.omniscient) out(hosted.writeUntilRefused(lines));
      else answer(hosted, hosted.write(lines), true);
      return;
    }
    case 'choose':
    case 'tie': {
      const hosted = hostedBattle(id);
      settle(hosted);
      const line = msg.op === 'tie' ? '>forcetie' : `>${msg.side} ${msg.choice}`;
      answer(hosted, hosted.write([line]), false); // sent if it says something, and played on
      return;
    }
    case 'end': { // how an input log ended without a choice: a forfeit, a loss on time, a tie
      const hosted = hostedBattle(id);
      settle(hosted);
      if (!/^>(forcelose p[12]|forcewin p[12]|forcetie)$/.test(msg.line)) throw new Error(`not an ending: ${msg.line}`);
      answer(hosted, hosted.write([msg.line]), true);
      return;
    }
    case 'close': {
      const hosted = battles.get(id);
      if (hosted) abandon(hosted);
      battles.delete(id);
      return;
    }
    case 'follow': // a replay log, for importing it: no battle is kept
      out({battle: id, type: 'followed', pieces: follow(msg.lines || [])});
      return;
    case 'debug-crash': // for tests: make one battle throw inside the simulator
      if (testSwitches.has('debug-crash')) {
        const hosted = battles.get(id);
        if (hosted) hosted.crashOnNextChoice();
        return;
      }
      // fall through: refused like any unknown op
    default:
      throw new Error(`unknown op '${msg.op}'`);
  }
}

/**
 * A command, or a game the bridge played on by itself, failed: its battle (if any) is gone.
 * @param {string | undefined} id
 * @param {unknown} err
 */
function crashed(id, err) {
  if (id !== undefined) {
    const hosted = battles.get(id);
    if (hosted) abandon(hosted);
    battles.delete(id);
  }
  out({battle: id === undefined ? null : id, type: 'crash', message: String((err instanceof Error && err.message) || err)});
}

onFailure(crashed);
readMessages(handle, (err, msg) => crashed(msg && msg.battle, err));
out({type: 'ready', showdown: SHOWDOWN_VERSION, pid: process.pid});
