'use strict';
// -- budgets ------------------------------------------------------------------------------------

function cpuMs() {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** @typedef {'wall' | 'cpu'} Clock */
/**
 * What a search may spend: nodes, wall-clock ms or CPU ms (the first one given, in that order).
 * @typedef {{nodes?: number, ms?: number, cpu?: number}} BudgetSpec
 */

const CLOCKS = {wall: () => performance.now(), cpu: cpuMs};
// What one node costs on each clock, as a running average: the first node of a search is not a guess.
const nodeCost = {wall: 3, cpu: 3};

class Budget {
  // Nodes (deterministic), wall-clock milliseconds since the search was asked (ms), or this
  // process's CPU milliseconds (cpu: the same compute on a busy machine as on an idle one, where
  // the wall clock may run longer). `share` gives a part of what is left to one piece of work
  // (one switch-in's look-ahead).
  /**
   * @param {BudgetSpec} spec
   * @param {Budget | null} [parent]
   */
  constructor(spec, parent = null) {
    /** @type {Clock} */
    this.kind = spec.cpu ? 'cpu' : 'wall';
    this.clock = CLOCKS[this.kind];
    this.ms = spec.cpu || spec.ms || 0;
    this.maxNodes = spec.nodes || 0;
    this.started = this.clock();
    this.nodes = 0;
    this.parent = parent;
  }
  elapsed() {
    return this.clock() - this.started;
  }
  count() {
    this.nodes++;
    if (this.parent) this.parent.count();
  }
  /**
   * @param {number} [nodesAhead]
   * @returns {boolean}
   */
  spent(nodesAhead = 1) {
    // Time: stop when the next piece of work (nodesAhead nodes at 1.5 times the running
    // average, for the jitter of a shared machine) would end past 95% of the budget.
    if (this.parent && this.parent.spent(nodesAhead)) return true;
    if (this.maxNodes) return this.nodes >= this.maxNodes;
    if (!this.ms) return false;
    return this.elapsed() + 1.5 * nodesAhead * nodeCost[this.kind] >= 0.95 * this.ms;
  }
  /** @param {number} parts */
  share(parts) {
    /** @type {BudgetSpec} */
    const child = {};
    if (this.maxNodes) child.nodes = Math.max(1, Math.floor((this.maxNodes - this.nodes) / parts));
    else child[this.kind === 'cpu' ? 'cpu' : 'ms'] = Math.max(0.001, (this.ms - this.elapsed()) / parts);
    return new Budget(child, this);
  }
}

module.exports = {cpuMs, nodeCost, Budget};
