'use strict';
// -- seeded randomness ------------------------------------------------------------------------

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

function prngSeed(...parts) {
  // Showdown's four 16-bit numbers.
  const a = mix(...parts, 'a');
  const b = mix(...parts, 'b');
  return [a & 0xffff, a >>> 16, b & 0xffff, b >>> 16];
}

module.exports = {mix, prngSeed};
