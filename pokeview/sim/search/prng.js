'use strict';
// -- seeded randomness ------------------------------------------------------------------------

/** @param {...(string | number)} parts */
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

/**
 * @param {...(string | number)} parts
 * @returns {[number, number, number, number]}
 */
function prngSeed(...parts) {
  // Showdown's four 16-bit numbers.
  const a = mix(...parts, 'a');
  const b = mix(...parts, 'b');
  return [a & 0xffff, a >>> 16, b & 0xffff, b >>> 16];
}

/**
 * A seed as Showdown takes it. The pinned simulator's PRNG still takes four numbers (it joins
 * them into its `n,n,n,n` form), though its types name only the string forms: this says so once.
 * @param {number[]} seed
 * @returns {import('pokemon-showdown/dist/sim/prng').PRNGSeed}
 */
const showdownSeed = (seed) => /** @type {any} */ (seed);

module.exports = {mix, prngSeed, showdownSeed};
