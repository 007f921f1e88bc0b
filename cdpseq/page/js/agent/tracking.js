// Change tracking, so that a repeated read of an unchanged page costs next to nothing.
//
// A counter that moves on every DOM mutation in every root a read walked (a style attribute's
// too: it may hide or show), and on the events after which a page can look different without
// a mutation: input and change (form values are properties), focus and hover (:focus, :hover
// styles), transitions and animations ending, a frame loading, resize (media queries).
// readAgain() also re-checks form values and looks for shadow roots and frames no read has
// walked yet; anything off and it reads (a read walks only what changed: rewalk.js).
//
// The same observer keeps what a read can reuse. Every element a mutation may have changed
// the name of (the mutated node and its ancestors, across shadow roots) goes into `dirty`; a
// control outside it keeps the name, kind, hint and row text the last read computed for it
// (`rows`). A batch of mutations too big to mark moves `epoch` on, which voids every cached
// row.

// The shape of reg.tracking: a newer agent replaces an older one's. Its observer and listeners
// mark reg.model (model.js), so a change of either shape changes this one too.
const TRACKING = 10;
const MAX_MARKED_RECORDS = 2000;

function trackNewRoots(node) {
  // Observe shadow roots in an added subtree at once: a component attaches its shadow root when
  // it connects and renders into it a moment later, which must not go unseen. Its custom
  // elements join those sweepRoots asks.
  const customs = reg.tracking.customs;
  if (node.shadowRoot) track(node.shadowRoot);
  if (node.tagName.includes("-")) customs.add(node);
  if (!node.firstElementChild) return;
  for (const el of node.querySelectorAll("*")) {
    if (el.shadowRoot) track(el.shadowRoot);
    if (el.tagName.includes("-")) customs.add(el);
  }
}

function around(el) {
  // The element whose subtree holds el and what CSS may show or hide beside it: its parent
  // (a slotted element's is its host: a scan of its slot would not reach it), else its host.
  return el.parentElement || composedParent(el) || el;
}

function markUp(node, marked) {
  // node and the elements around it, as the page renders it (a slotted node in its slot).
  const t = reg.tracking;
  for (let n = node; n && !marked.has(n); n = n.assignedSlot || n.parentNode || n.host) {
    marked.add(n);
    t.dirty.add(n);
    markEntry(n);
  }
}

function noteMutations(records) {
  // Every mutation moves the version and marks what it may have
  // changed: for kept read rows (`dirty`), and for the page model (model.js): the subtree around
  // a changed attribute (CSS may show or hide what is next to it), added subtrees, removed ones,
  // and the ancestors whose names or text may include the change.
  const t = reg.tracking;
  const marked = records.length <= MAX_MARKED_RECORDS ? new Set() : null;
  let counted = false, styled = false, restyled = false;
  for (const r of records) {
    if (marked) noteForRead(r);
    if (r.type === "attributes") {
      if (r.attributeName === "style" || r.attributeName === "class") styled = true;
      markSubtree(around(r.target));
      // Style-only churn (animations, hover effects) is no mutation to settle on, but it may
      // show or hide content: a read looks again.
      if (r.attributeName === "style") { restyled = true; continue; }
    } else if (r.type === "childList") {
      for (const node of r.addedNodes) {
        if (node.nodeType !== 1) continue;
        trackNewRoots(node);
        markSubtree(node);
        model.placed.set(node, r.target);
      }
      for (const node of r.removedNodes) {
        if (node.nodeType !== 1) continue;
        model.pending.removed.add(node);
        model.placed.set(node, r.target);
      }
    }
    counted = true;
    if (!marked) continue;
    markUp(r.target, marked);
    // A shadow host's children show at its slots (a slotted text is the text of the box the
    // slot is in): those boxes may have changed too.
    if (r.type === "childList" && r.target.shadowRoot) {
      for (const slot of r.target.shadowRoot.querySelectorAll("slot")) markUp(slot, marked);
    }
  }
  if (!marked && counted) { t.epoch++; markAll(); }
  if (counted || restyled) t.version++;
  if (counted) t.lastMutation = performance.now();
  if (styled) t.lastStyleChange = performance.now();
}

if (!reg.tracking || reg.tracking.shape !== TRACKING) {
  if (reg.tracking) reg.tracking.observer.disconnect();
  const tracking = reg.tracking = {
    shape: TRACKING, version: 0, roots: new WeakSet(), shadows: [], frames: [], values: new Map(),
    dirty: new WeakSet(), epoch: 0, rows: new WeakMap(), swept: new WeakSet(), customs: new Set(),
    lastMutation: 0, lastStyleChange: 0,
  };
  tracking.observer = new MutationObserver(noteMutations);
  // What changes what a user sees without a mutation: values, focus, hover, transitions ending,
  // the viewport. Each moves the version (for reads) and marks the model where to look.
  const aroundEvent = event => {
    const target = event.target;
    return target && target.nodeType === 1 ? around(target) : null;
  };
  const marks = {
    input: e => { markEntry(e.target); markSubtree(aroundEvent(e)); },
    change: e => { markEntry(e.target); markSubtree(aroundEvent(e)); },
    focusin: e => markSubtree(aroundEvent(e)), focusout: e => markSubtree(aroundEvent(e)),
    mouseover: e => markSubtree(aroundEvent(e)), mouseout: e => markSubtree(aroundEvent(e)),
    transitionend: e => markSubtree(e.target), animationend: e => markSubtree(e.target),
    load: e => { if (e.target.tagName === "IFRAME" || e.target.tagName === "FRAME") markSubtree(e.target); },
    resize: () => markAll(), pageshow: () => markAll(),
  };
  for (const [type, mark] of Object.entries(marks)) {
    // A load event stops at the document: it never reaches the window.
    (type === "load" ? document : window).addEventListener(type, event => {
      if (type !== "load" || event.target.tagName === "IFRAME" || event.target.tagName === "FRAME") {
        tracking.version++;
      }
      mark(event);
    }, true);
  }
}

function track(root) {
  if (reg.tracking.roots.has(root)) return;
  reg.tracking.roots.add(root);
  // document.getAnimations() leaves out a shadow root's: the settle asks each (shadowRoots()).
  if (root.host) reg.tracking.shadows.push(root);
  else if (root !== document) reg.tracking.frames.push(root);  // a frame's document (sweepRoots)
  reg.tracking.observer.observe(root, { subtree: true, childList: true, attributes: true,
    characterData: true });
}

function shadowRoots() {
  // The shadow roots observed that are still on the page. One whose host left is forgotten (and
  // observed again if it comes back: trackNewRoots).
  const t = reg.tracking;
  if (t.shadows.some(root => !root.host.isConnected)) {
    for (const root of t.shadows) if (!root.host.isConnected) t.roots.delete(root);
    t.shadows = t.shadows.filter(root => root.host.isConnected);
  }
  return t.shadows;
}

function formKey(el) {
  // What of a field's state a script can change without a mutation or an event.
  if (el.type === "checkbox" || el.type === "radio") {
    return el.indeterminate ? "mixed" : String(el.checked);
  }
  if (el.tagName === "SELECT") {
    return el.multiple ? Array.from(el.selectedOptions, o => o.index).join() : String(el.selectedIndex);
  }
  return el.value;
}

function unchangedSince(args) {
  const t = reg.tracking;
  noteMutations(t.observer.takeRecords());
  if (t.version !== args.version || location.href !== args.url ||
      document.title !== args.title) {
    return false;
  }
  for (const [el, key] of t.values) if (!el.isConnected || formKey(el) !== key) return false;
  // Focus that moved into or inside a frame: no event reaches this window.
  const last = reg.rewalk.last;
  if (last && last.active !== deepActive()) return false;
  if (sweepRoots()) return false;
  return t.version === args.version;
}

function sweepRoots() {
  // Whether a shadow root or a frame's document appeared that no walk observed (attached to an
  // element already there: no mutation tells); each is observed from now on and its host
  // marked for the page model and the next read. A root's first sweep asks each of its elements
  // for its shadow root (a walk in script: cheaper than any native query of the elements that
  // can host one, which matches each against a list) and notes its custom elements; later ones
  // ask only the elements that can hold one: those of the tags that can (native lists, cached
  // while the root does not change) and the custom elements noted, and added since
  // (trackNewRoots). On a page of 10,000 rows: about 1 ms instead of 25.
  const t = reg.tracking;
  t.frames = t.frames.filter(doc => doc.defaultView);
  let found = false;
  const look = el => {
    let inner = el.shadowRoot;
    if (!inner && (el.tagName === "IFRAME" || el.tagName === "FRAME")) {
      try { inner = el.contentDocument; } catch (e) { inner = null; }
      if (inner && !inner.documentElement) inner = null;
    }
    if (!inner || t.roots.has(inner)) return;
    track(inner);
    markSubtree(el);
    found = true;
  };
  for (const root of [document, ...shadowRoots(), ...t.frames]) {
    if (!t.swept.has(root)) {
      t.swept.add(root);
      const walker = (root.ownerDocument || root).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let el = walker.nextNode(); el; el = walker.nextNode()) {
        if (el.tagName.includes("-")) t.customs.add(el);
        look(el);
      }
    } else if (root.nodeType === 9) {
      for (const tag of SWEPT_TAGS) for (const el of root.getElementsByTagName(tag)) look(el);
    } else {
      for (const el of root.querySelectorAll(SWEPT_SELECTOR)) look(el);
    }
  }
  for (const el of t.customs) {
    if (el.isConnected) look(el);
    else t.customs.delete(el);  // noted again if it comes back (trackNewRoots)
  }
  return found;
}

// What sweepRoots asks besides custom elements: attachShadow's elements, and frames.
const SWEPT_TAGS = ["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3",
  "h4", "h5", "h6", "header", "main", "nav", "p", "section", "span", "iframe", "frame"];
const SWEPT_SELECTOR = SWEPT_TAGS.join(",");

function readAgain(opts) {
  // The read again: {unchanged} when nothing changed since the caller's last one (the
  // document's read count still moves, as for any read), else the read.
  const previous = reg.lastRead;
  const filter = opts.filter === "all" ? "all" : "interactive";
  if (!previous || previous.filter !== filter || !unchangedSince(opts)) return read(opts);
  previous.number++;
  return JSON.stringify({ unchanged: true, read: previous.number });
}
