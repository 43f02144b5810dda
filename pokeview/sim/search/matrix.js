'use strict';
// -- the matrix game -------------------------------------------------------------------------------

/**
 * @param {number[][]} matrix
 * @param {number} [iterations]
 * @returns {{p: number[], q: number[]}}
 */
function solve(matrix, iterations = 400) {
  // Regret matching on a zero-sum matrix game (rows maximise); deterministic. Returns each
  // side's average strategy.
  const m = matrix.length;
  const n = matrix[0].length;
  const rowRegret = new Array(m).fill(0);
  const colRegret = new Array(n).fill(0);
  const rowSum = new Array(m).fill(0);
  const colSum = new Array(n).fill(0);
  const strategy = (/** @type {number[]} */ regret) => {
    let total = 0;
    for (const r of regret) if (r > 0) total += r;
    return total > 0 ? regret.map((r) => (r > 0 ? r / total : 0)) : regret.map(() => 1 / regret.length);
  };
  for (let t = 0; t < iterations; t++) {
    const p = strategy(rowRegret);
    const q = strategy(colRegret);
    const rowPay = new Array(m).fill(0);
    const colPay = new Array(n).fill(0);
    let value = 0;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        rowPay[i] += matrix[i][j] * q[j];
        colPay[j] -= p[i] * matrix[i][j];
      }
      value += rowPay[i] * p[i];
    }
    for (let i = 0; i < m; i++) {
      rowRegret[i] += rowPay[i] - value;
      rowSum[i] += p[i];
    }
    for (let j = 0; j < n; j++) {
      colRegret[j] += colPay[j] + value;
      colSum[j] += q[j];
    }
  }
  const norm = (/** @type {number[]} */ xs) => {
    const total = xs.reduce((a, b) => a + b, 0);
    return xs.map((x) => x / total);
  };
  return {p: norm(rowSum), q: norm(colSum)};
}

module.exports = {solve};
