// A read's rows as what changed against an earlier read (read.js's remember): splices in row
// order, so that a client holding the rows of the document's last read receives a few rows, not
// all of them; or a delta read's rows, those new since the document's previous read. The rows of a read are JSON texts; the kept ones are the
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

function deltaAgainst(head, previous, filter, rows) {
  // A delta read's head: what changed since the document's previous read (the rows new since,
  // the rows gone), or why it answers in full.
  if (!previous) {
    head.full = "no earlier read of this document";
    return;
  }
  if (previous.filter !== filter) {
    head.full = `read #${previous.number} used another filter`;
    return;
  }
  const before = new Set(previous.rows);
  const now = new Set(rows);
  const changed = [];
  rows.forEach((row, index) => { if (!before.has(row)) changed.push(index); });
  const removed = previous.rows.filter(row => !now.has(row));
  if (changed.length + removed.length > 2 && changed.length + removed.length > rows.length / 2) {
    head.full = "the delta would be larger than half the page";
    return;
  }
  head.delta = { against: previous.number, removed, changed,
    unchanged: rows.length - changed.length };
}
