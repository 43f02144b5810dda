'use strict';
// What every part of the bridge reads of Showdown's protocol the same way.

/** @typedef {'p1' | 'p2'} SideId */

/** @type {SideId[]} */
const SIDES = ['p1', 'p2'];

// Lines that differ from run to run or are the simulator talking to itself.
const isNoise = (/** @type {string} */ line) => line.startsWith('|t:|') || line.startsWith('|debug|');

module.exports = {SIDES, isNoise};
