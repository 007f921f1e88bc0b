// Blocks without a role that appear (or go) whole: a date picker's calendar made of divs, a
// popup a library builds without ARIA. To a reader what came in one such block is one thing,
// as a container is: the delta (delta.js) reports the block once, with its first lines and its
// controls (refs), instead of its parts one by one; and once when it goes.
//
// A block is the highest element around an appeared entry (below <body>) that is no control
// and holds no entry that was there before the act (nor one rendered again in it and paired:
// that block was there), nor a container or live region (a dialog in a portal's wrapper is
// reported as the dialog); it takes three or more of the appeared entries. Entries that came
// into a container that stays (rows added to a table) are that container's, not a block's.

const BLOCK_AT = 3;

function withBlocks(tops, appeared = []) {
  // tops (appeared [el, entry] not inside an appeared container, in order; and the groups of
  // those that came into a container that stays, as grouped() makes them, which are left as
  // they are) with each block's entries replaced, in its first entry's place, by [block, its
  // container-like entry]. Without `appeared`, tops are entries that went: a block is then
  // one that holds no entry now (hidden or removed whole).
  if (tops.length < BLOCK_AT) return tops;
  const fresh = new Set(appeared.map(([el]) => el));
  const known = new Map();  // element -> whether all it holds is fresh
  const blockOf = new Map();
  const counts = new Map();
  for (const [el, entry, group] of tops) {
    if (group || entry.kind === "container" || entry.kind === "live") continue;
    let block = null;
    for (let parent = composedParent(el); parent && parent.nodeType === 1 &&
      parent !== parent.ownerDocument.body && parent !== parent.ownerDocument.documentElement;
      parent = composedParent(parent)) {
      // An element with an entry of its own that came too (a row of days, whose text the
      // days are) is part of the block; one that was there, or a control, ends it (allFresh
      // says so of containers).
      const own = model.entries.get(parent);
      if ((own && (!fresh.has(parent) || own.kind === "control")) ||
        !allFresh(parent, fresh, known)) break;
      block = parent;
    }
    blockOf.set(el, block);
    if (block) counts.set(block, (counts.get(block) || 0) + 1);
  }
  const out = [], done = new Set();
  for (const item of tops) {
    const block = blockOf.get(item[0]);
    if (!block || counts.get(block) < BLOCK_AT) { out.push(item); continue; }
    if (done.has(block)) continue;
    done.add(block);
    out.push([block, { kind: "container", role: roleOf(block), name: containerName(block,
      roleOf(block)), text: "", states: null }]);
  }
  return out;
}

function allFresh(parent, fresh, known) {
  // Whether every entry in parent's subtree came or went in this act. Stops at the first entry
  // that did not; what each walk learns of a subtree is kept, so that the tops of one block
  // walk it once between them.
  const freshIn = node => {
    const memo = known.get(node);
    if (memo !== undefined) return memo;
    const entry = node.nodeType === 1 ? model.entries.get(node) : undefined;
    let result = !entry || (fresh.has(node) && entry.kind !== "container" && entry.kind !== "live");
    for (let kid = node.firstElementChild; result && kid; kid = kid.nextElementSibling) {
      result = freshIn(kid);
    }
    if (result && node.shadowRoot) result = freshIn(node.shadowRoot);
    known.set(node, result);
    return result;
  };
  return freshIn(parent);
}
