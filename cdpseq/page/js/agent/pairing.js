// Elements rendered again: a page that renders again (innerHTML, a list without keys) replaces
// elements with new ones, which to a reader stayed. The delta (delta.js) pairs each such new
// element with the one it replaced, from the places this act's added and removed subtrees hung
// (model.placed), their kinds, roles, names and the text of their rows.

function placeOf(el) {
  // Where an element came or went: the node its added or removed subtree hung from (during
  // this act), or null when it was shown or hidden in place.
  for (let node = el; node; node = composedParent(node)) {
    const at = model.placed.get(node);
    if (at) return at;
  }
  return null;
}

function textsByRow(items) {
  // Per row or item, the text its text entries among items hold (read from the entries: a
  // removed row can no longer be read).
  const texts = new Map();
  for (const [el, e] of items) {
    if (e.kind !== "text") continue;
    const row = el.closest ? el.closest(ROW_SELECTOR) : null;
    if (row) texts.set(row, (texts.get(row) || "") + "\n" + e.text);
  }
  return texts;
}

function pairRerendered(appeared, disappeared) {
  // Pages that render again (innerHTML, a list without keys) replace elements with new ones
  // of the same kind, role and name in the same place: to a reader those stayed. Each such
  // pair is taken out of appeared and disappeared; what differs is a change. Exact pairs come
  // first: the same text, a control of the same name in a row of the same text, wherever it
  // went (a list sorted by rendering it again: a row's "Done" is the new "Done" of that row,
  // not of the row now in its place); then the rest, in order.
  const keyOf = entry => entry.kind === "text" || entry.kind === "live" ? entry.kind
    : `${entry.kind}\n${entry.role}\n${entry.name}`;
  const texts = [textsByRow(disappeared), textsByRow(appeared)];
  const exactOf = (side, [el, entry]) => {
    if (entry.kind === "text" || entry.kind === "live") return `${entry.kind}\n${entry.text}`;
    const row = el.closest ? el.closest(ROW_SELECTOR) : null;
    return `${keyOf(entry)}\n${(row && texts[side].get(row)) || ""}`;
  };
  const pairs = [], paired = new Set();
  const pass = (oldKey, newKey, eligible = () => true) => {
    const places = new Map();  // where -> key -> disappeared items, in order
    for (const item of disappeared) {
      const at = !paired.has(item) && eligible(item) && placeOf(item[0]);
      if (!at) continue;
      let keys = places.get(at);
      if (!keys) places.set(at, keys = new Map());
      const key = oldKey(item);
      if (!keys.has(key)) keys.set(key, []);
      keys.get(key).push(item);
    }
    for (const item of appeared) {
      const at = !paired.has(item) && eligible(item) && placeOf(item[0]);
      const waiting = at && places.has(at) && places.get(at).get(newKey(item));
      if (!waiting || !waiting.length) continue;
      const old = waiting.shift();
      pairs.push([old, item]);
      paired.add(old).add(item);
    }
  };
  pass(item => exactOf(0, item), item => exactOf(1, item));
  // Then the rest in order, but rows that came and went whole pair so only when one row is
  // left at their place on each side (that row, edited): several rows that differ are other
  // rows (a table's next page), and pairing them would give an old row's ref to another's.
  const rowsLeft = side => {
    const rows = new Map();  // where -> rows left
    for (const item of side) {
      const row = !paired.has(item) && wholeRow(item[0]);
      if (!row) continue;
      const at = placeOf(item[0]);
      if (!rows.has(at)) rows.set(at, new Set());
      rows.get(at).add(row);
    }
    return rows;
  };
  const left = [rowsLeft(disappeared), rowsLeft(appeared)];
  const alone = item => {
    if (!wholeRow(item[0])) return true;
    const at = placeOf(item[0]);
    return left.every(rows => rows.has(at) && rows.get(at).size === 1);
  };
  pass(item => keyOf(item[1]), item => keyOf(item[1]), alone);
  const order = new Map(appeared.map((item, index) => [item, index]));
  pairs.sort((a, b) => order.get(a[1]) - order.get(b[1]));
  return [appeared.filter(item => !paired.has(item)), disappeared.filter(item => !paired.has(item)),
    pairs];
}

function wholeRow(el) {
  // The row or item el is in when that row came or went whole in this act (not a row whose
  // cells were rendered again), else null.
  const row = el.closest ? el.closest(ROW_SELECTOR) : null;
  if (!row) return null;
  for (let node = el; node; node = composedParent(node)) {
    if (model.placed.has(node)) return node === row || node.contains(row) ? row : null;
  }
  return null;
}
