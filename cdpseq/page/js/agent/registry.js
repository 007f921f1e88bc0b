// The ref registry. Every client attached to the tab shares it (the world is shared), so a ref
// minted by one process is usable by another. It maps ref numbers to elements (WeakRef) and back
// (WeakMap); numbers start at the tab's floor + 1 (the highest ref ever minted in this tab, kept
// by the Python side), so a number is never given to a different element of the tab, even after
// a navigation.

const VERSION = 27;
if (globalThis.__cdpseq && globalThis.__cdpseq.version === VERSION) return VERSION;
const reg = globalThis.__cdpseqRefs || (globalThis.__cdpseqRefs = {
  base: 0, next: 0, byRef: new Map(), byEl: new WeakMap(),
});
// Fields filled from a credential: their value reads as "••••" from then on, in every read
// and delta, for every client (the registry is shared).
if (!reg.secrets) reg.secrets = new WeakSet();
// The [tag, role] pairs of read rows: list, and tag -> role -> index in list.
if (!reg.kinds) reg.kinds = { list: [], index: new Map() };

// Whitespace that clean() would change: at either end, doubled, or other than a space. Most
// names have none, and testing for it costs a fraction of the replace (a read cleans every name).
const UNCLEAN = /^\s|\s$|\s\s|[^\S ]/;
const clean = (s, n = 80) => {
  s = s || "";
  if (UNCLEAN.test(s)) s = s.replace(/\s+/g, " ").trim();
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
};

// -- registry -------------------------------------------------------------------------------

function init(floor) {
  if (reg.next === 0) reg.base = floor + 1;
  // A document restored from the back/forward cache keeps its registry; numbers minted since in
  // later documents are above it, so it carries on above them (its own refs stay valid).
  reg.next = Math.max(reg.next, floor + 1);
  return { base: reg.base, next: reg.next };
}

function refOf(el, mint) {
  let n = reg.byEl.get(el);
  if (n === undefined && mint) {
    n = reg.next++;
    reg.byEl.set(el, n);
    reg.byRef.set(n, new WeakRef(el));
  }
  return n;
}

function lookup(n) {
  if (n < reg.base) {
    return { error: "STALE_REF", reason: `ref_${n} belongs to a previous document of this tab` };
  }
  const weak = reg.byRef.get(n);
  if (!weak) {
    return { error: "STALE_REF", reason: `ref_${n} was never issued for this page` };
  }
  const el = weak.deref();
  if (!el || !el.isConnected) {
    return { error: "STALE_REF", reason: `ref_${n} was removed from the page` };
  }
  return { el };
}

function elements(refs) {
  return refs.map(n => {
    const weak = reg.byRef.get(n);
    return (weak && weak.deref()) || null;
  });
}
