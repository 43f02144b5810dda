'use strict';
// A replay log followed without a simulator, for importing it: no battle is kept.
const {SIDES, isNoise} = require('./protocol');
const {SideWords} = require('./words');
const {publicSnapshot} = require('./snapshot');

/**
 * @param {string[]} lines
 * @returns {import('./messages').Piece[]}
 */
function follow(lines) {
  // A spectator log cut at each turn's start: each piece's lines, both sides' words for them, and what
  // each side's view shows once the piece has happened.
  const words = {p1: new SideWords('p1'), p2: new SideWords('p2')};
  /** @type {import('./messages').Piece[]} */
  const pieces = [];
  /** @type {string[]} */
  let current = [];
  const flush = () => {
    if (!current.length) return;
    /** @type {import('./messages').Piece} */
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

module.exports = {follow};
