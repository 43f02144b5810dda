'use strict';
// A side's request and snapshot as differences from the ones it was sent before (record format
// 4, docs/record.md): consecutive ones differ in a few HP, PP and flags, so the record and the
// pipe to Python carry those instead of ~7 KB a step. pokeview/store/differences.py applies them
// and its tests hold the two to the same results.
//
// The differences are a list of operations, each on the value at a path (a list of object keys
// and array indices; [] is the whole value):
//   [path, value]             the value becomes `value`
//   [path]                    the key at path is deleted
//   [path, 'keys', keys]      the object gets these keys in this order (the values of the keys
//                             it had are kept; new ones are set by later operations)
//   [path, 'order', indices]  the array becomes its items at these indices, in this order
//                             (null: a new item, set by a later operation)
// Objects are compared key by key, arrays item by item, a team's members matched by name (a
// request puts the active one first, a snapshot adds foes as they are seen). Key order is part
// of the value, so applying the operations rebuilds it exactly, the keys in the order
// JSON.stringify writes them.

/**
 * A JSON value, and the operations that turn one into another: `[path, value]` sets, `[path]`
 * deletes, `[path, 'order', indexes]` and `[path, 'keys', keys]` rearrange.
 * @typedef {any} Json
 * @typedef {(string | number)[]} Path
 * @typedef {[Path] | [Path, Json] | [Path, 'order', (number | null)[]] | [Path, 'keys', string[]]} Operation
 */

/**
 * @param {{[key: string]: Json}} object
 * @param {string} key
 */
function own(object, key) {
  // Only the object's own keys: JSON text may name one `__proto__` (or `constructor`), which
  // every object would otherwise seem to have. What an object inherits is a function or the
  // prototype itself, never a JSON value: only then is the slower check needed.
  const value = object[key];
  if (value === undefined || (typeof value !== 'function' && value !== Object.prototype)) return value;
  return Object.prototype.hasOwnProperty.call(object, key) ? value : undefined;
}

/** @param {{[key: string]: Json}} object */
function present(object) {
  // The keys JSON.stringify writes: an undefined value is left out (JSON text has none: no copy).
  const keys = Object.keys(object);
  for (const key of keys) if (object[key] === undefined) return keys.filter((k) => object[k] !== undefined);
  return keys;
}

/**
 * @param {{[key: string]: Json}} after
 * @param {string[]} beforeKeys
 * @param {string[]} afterKeys
 */
function keepsOrder(after, beforeKeys, afterKeys) {
  // The keys both have are in the same order, and the new ones come last (where a dict puts them).
  let n = 0;
  for (const key of beforeKeys) {
    if (own(after, key) !== undefined && afterKeys[n++] !== key) return false;
  }
  return true;
}

/** @param {Json} item */
function memberName(item) {
  if (!item || typeof item !== 'object') return undefined;
  return typeof item.ident === 'string' ? item.ident : item.species;
}

/**
 * @param {Json[]} before
 * @param {Json[]} after
 * @returns {(number | null)[] | null}
 */
function matched(before, after) {
  // For two lists of team members: each new member's index in the old list (null when it is
  // not there), or null when they are not team lists or nothing moved.
  if (!before.length || !after.length || memberName(before[0]) === undefined) return null;
  /** @type {Map<string, number>} */
  const at = new Map();
  for (const [i, item] of before.entries()) {
    const name = memberName(item);
    if (typeof name !== 'string' || at.has(name)) return null;
    at.set(name, i);
  }
  const order = after.map((item) => {
    const i = at.get(memberName(item));
    return i === undefined ? null : i;
  });
  if (order.length === before.length && order.every((i, n) => i === n)) return null;
  return order;
}

/**
 * @param {Json} before
 * @param {Json} after
 * @param {Path} [path]
 * @param {Operation[]} [ops]
 * @returns {Operation[]}
 */
function differences(before, after, path = [], ops = []) {
  walk(before, after, path.slice(), ops);
  return ops;
}

/**
 * @param {Json} before
 * @param {Json} after
 * @param {Path} path  the value's path, a stack: pushed and popped on the way down, copied only
 *   into an operation (a copy at every key visited was most of the time this took)
 * @param {Operation[]} ops
 */
function walk(before, after, path, ops) {
  if (before === after) return;
  if (before && after && typeof before === 'object' && typeof after === 'object') {
    const beforeIsArray = Array.isArray(before);
    if (beforeIsArray && Array.isArray(after)) {
      const order = matched(before, after);
      if (order) {
        ops.push([path.slice(), 'order', order]);
        for (let i = 0; i < after.length; i++) {
          const at = order[i];
          path.push(i);
          if (at === null) ops.push([path.slice(), after[i]]);
          else walk(before[at], after[i], path, ops);
          path.pop();
        }
        return;
      }
      if (before.length === after.length) {
        for (let i = 0; i < after.length; i++) {
          if (before[i] === after[i]) continue;
          path.push(i);
          walk(before[i], after[i], path, ops);
          path.pop();
        }
        return;
      }
    } else if (!beforeIsArray && !Array.isArray(after)) {
      const beforeKeys = present(before);
      const afterKeys = present(after);
      if (keepsOrder(after, beforeKeys, afterKeys)) {
        for (const key of beforeKeys) if (own(after, key) === undefined) ops.push([[...path, key]]);
      } else {
        ops.push([path.slice(), 'keys', afterKeys]);
      }
      for (const key of afterKeys) {
        const was = own(before, key);
        const now = after[key];
        if (was === now) continue;
        path.push(key);
        if (was === undefined) ops.push([path.slice(), now]);
        else walk(was, now, path, ops);
        path.pop();
      }
      return;
    }
  }
  ops.push([path.slice(), after]);
}

module.exports = {differences};
