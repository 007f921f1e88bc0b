// A read's rows as what changed against the caller's earlier read of them: splices in row
// order, so that a client holding the rows of the document's last read receives a few rows, not
// all of them (read.js's remember). The rows of a read are JSON texts; the kept ones are the
// same strings read after read (rewalk.js keeps them per element), so most compare at once.

// Beyond this share of the rows (or this many splices) the answer is the rows themselves.
const SPLICE_SHARE = 0.5;
const SPLICE_MAX = 256;

function baselineId(number) {
  // What names a read's rows for the next read's `splice`: unique per document and read, so
  // that a client's rows of another document (or another read) never match.
  return `${number}.${Math.random().toString(36).slice(2)}`;
}

function splicesBetween(before, after) {
  // {at, rows}: `at` holds [index in after, rows of before removed there, rows added there]
  // per splice, in row order (each index counts the splices before it done), `rows` the rows
  // added, in order; null when they are too many to be worth it. A linear pass: at the first
  // difference, an index of before's rows (their first place from there) tells whether a row
  // of after is one of before's further on (the rows between went) or new (added).
  const at = [], rows = [];
  let index = null;
  let i = 0, j = 0;
  while (i < after.length || j < before.length) {
    if (i < after.length && j < before.length && after[i] === before[j]) { i++; j++; continue; }
    if (index === null) {
      index = new Map();
      for (let k = before.length - 1; k >= j; k--) index.set(before[k], k);
    }
    const start = i, from = j;
    j = before.length;  // unless a row of after is found further on in before
    for (; i < after.length; i++) {
      const k = index.get(after[i]);
      if (k !== undefined && k >= from) { j = k; break; }
      rows.push(after[i]);
    }
    at.push([start, j - from, i - start]);
    if (at.length > SPLICE_MAX || rows.length > Math.max(8, after.length * SPLICE_SHARE)) {
      return null;
    }
  }
  return { at, rows };
}
