// The Reader's walk order (read.js), for the rows a read keeps (rewalk.js): where an element's
// rows are among them, what holds what, and which kept elements are still on the page.

function walkParent(node) {
  // The element the Reader walks before node and whose subtree holds it: its parent, a shadow
  // root's host, a frame document's frame element; null at the top (or a document gone).
  const parent = node.parentNode;
  if (!parent) return null;
  if (parent.nodeType === 1) return parent;
  if (parent.nodeType === 11) return parent.host || null;
  if (parent === document) return null;
  const view = parent.defaultView;
  return (view && view.frameElement) || null;
}

function ancestry(node) {
  const chain = [];
  for (let n = node; n; n = walkParent(n)) chain.push(n);
  return chain.reverse();
}

function walkedBefore(a, b) {
  // Whether the Reader walks a before b (an element before what it holds; a shadow root or a
  // frame's document before its host's children).
  if (a === b) return false;
  const ca = ancestry(a), cb = ancestry(b);
  let i = 0;
  while (i < ca.length && i < cb.length && ca[i] === cb[i]) i++;
  if (i === ca.length) return true;
  if (i === cb.length) return false;
  const x = ca[i], y = cb[i];
  const xInner = x.parentNode.nodeType !== 1, yInner = y.parentNode.nodeType !== 1;
  if (xInner !== yInner) return xInner;
  return (x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
}

function firstAt(items, el) {
  // The index of the first kept row whose element the Reader walks at or after el.
  let lo = 0, hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (walkedBefore(items[mid].el, el)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function holds(root, el) {
  for (let n = el; n; n = walkParent(n)) if (n === root) return true;
  return false;
}

function underAny(el, set, memo) {
  // Whether el or an element around it (as the Reader walks) is in set, memoized per element.
  const chain = [];
  let found = false;
  for (let n = el; n; n = walkParent(n)) {
    const known = memo.get(n);
    if (known !== undefined) { found = known; break; }
    chain.push(n);
    if (set.has(n)) { found = true; break; }
  }
  for (const n of chain) memo.set(n, found);
  return found;
}

function alive(el) {
  // Still on the page: connected, in the document or in a frame's document that is still there.
  if (!el.isConnected) return false;
  const doc = el.ownerDocument;
  if (doc === document) return true;
  const view = doc.defaultView;
  return !!(view && view.frameElement && alive(view.frameElement));
}

