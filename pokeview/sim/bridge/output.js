'use strict';
// The bridge's answers to Python: one JSON message a line on stdout.
//
// Written together once the commands that came in one read are done (`flush`, which lines.js
// calls, and a setImmediate for anything else): a pipe's write is a system call on Linux, and
// at 16 games at a time one write a step was 14% of the bridge's time in a profile.

/** @typedef {import('./messages').Step} Step */

/** @type {string[]} */
let pending = [];
let scheduled = false;

function flush() {
  scheduled = false;
  if (!pending.length) return;
  const text = pending.join('');
  pending = [];
  process.stdout.write(text);
}

/** @param {string} line */
function send(line) {
  pending.push(line);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

/** @param {object} msg  one of the bridge's replies (messages.js), or the search host's */
function out(msg) {
  send(JSON.stringify(msg) + '\n');
}

/** @param {Step} step */
function outStep(step) {
  // Like out(), but each request is already JSON text and is spliced in as it is. The
  // differences from a side's last request and snapshot are left out when there were none.
  const sides = Object.entries(step.sides).map(([side, u]) =>
    `${JSON.stringify(side)}:{"lines":${JSON.stringify(u.lines)},"text":${JSON.stringify(u.text)},` +
    `"request":${u.request || 'null'},"error":${JSON.stringify(u.error)},` +
    `"state":${JSON.stringify(u.state || null)}` +
    (u.requestDelta ? `,"request_delta":${JSON.stringify(u.requestDelta)}` : '') +
    (u.stateDelta ? `,"state_delta":${JSON.stringify(u.stateDelta)}` : '') +
    (u.chosen ? `,"chosen":${JSON.stringify(u.chosen)}` : '') + '}');
  send(
    `{"battle":${JSON.stringify(step.battle)},"type":"step","sides":{${sides.join(',')}},` +
    `"spectator":${JSON.stringify(step.spectator)},"input":${JSON.stringify(step.input)},` +
    `"end":${JSON.stringify(step.end)}}\n`);
}

module.exports = {out, outStep, flush};
