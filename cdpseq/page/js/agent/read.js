// read_page: one walk over the page that writes a head line and one JSON row per element.

const TEXT_TAGS = new Set(["P", "LI", "TD", "TH", "LABEL", "BLOCKQUOTE", "PRE", "DD", "DT",
  "FIGCAPTION", "CAPTION", "LEGEND"]);
const HEADINGS = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK",
  "TITLE"]);

function ownText(el) {
  // Text of el that is not inside an interactive descendant (those get their own lines).
  let text = "";
  for (const node of el.childNodes) {
    if (node.nodeType === 3) text += node.data;
    else if (node.nodeType === 1 && !SKIP.has(node.tagName)) {
      const role = roleOf(node);
      if (!isInteractive(node, role) && !HEADINGS[node.tagName]) text += " " + ownText(node);
    }
  }
  return text;
}

// Attributes that can make an element interactive, or name it or give it state beyond what its
// tag says. One native query per root finds the few elements that carry any; every other
// element takes read()'s fast path, with no attribute lookups at all.
const RICH = "[role],[onclick],[tabindex],[contenteditable],[aria-label],[aria-labelledby]," +
  "[aria-checked],[aria-disabled],[aria-expanded],[aria-selected],[title]";
// The elements that can host a shadow root (besides custom elements, whose names have a "-").
const SHADOW_HOSTS = new Set(["ARTICLE", "ASIDE", "BLOCKQUOTE", "BODY", "DIV", "FOOTER", "H1",
  "H2", "H3", "H4", "H5", "H6", "HEADER", "MAIN", "NAV", "P", "SECTION", "SPAN"]);

function read(opts) {
  return withHintCounts(() => readRows(opts));
}

function readRows(opts) {
  // A head line (JSON), then one line per row (each a JSON array), so that the caller can
  // recognize a row it has seen before by its text alone, without decoding it:
  //   [ref, kind, name, state?, hint?] for interactive elements, where kind indexes the head's
  //   `kinds` ([tag, role] pairs; the table only grows within a document, so an index keeps
  //   its meaning) and a missing or 0 hint means role+name is unique on the page (the caller
  //   writes that hint itself); [0, "h", level, text] for headings and [0, "t", text] for
  //   text (filter "all").
  const all = opts && opts.filter === "all";
  const limit = (opts && opts.limit) || Infinity;
  const t = reg.tracking;
  noteMutations(t.observer.takeRecords());
  if (t.richStale) {
    t.rich = new WeakMap();
    t.richStale = false;
  }
  const version = t.version;
  const out = new Reader(all, limit);
  out.root(document, true);
  out.finish();
  for (const root of out.roots) track(root);
  t.values = out.forms;
  const lines = [JSON.stringify({ url: location.href, title: document.title, base: reg.base,
    next: reg.next, kinds: reg.kinds.list, truncated: out.rows.length >= limit, version })];
  const { rows, texts } = out;
  for (let i = 0; i < rows.length; i++) lines.push(texts[i] || JSON.stringify(rows[i]));
  // One string: Chrome moves it much faster than the same data as a value tree.
  return lines.join("\n");
}

const VISIBLE = { checkVisibilityCSS: true };
// Controls whose row depends only on their own attributes and subtree (when they carry no
// RICH attribute): their rows are kept between reads, see `plain`.
const PLAIN_TAGS = new Set(["A", "BUTTON", "SUMMARY"]);

function withHint(row, hint) {
  // [ref, kind, name] or [ref, kind, name, state] -> [ref, kind, name, state or 0, hint]
  if (row.length === 3) row.push(0);
  row[4] = hint;
  return row;
}

function kindIndex(tag, role) {
  let roles = reg.kinds.index.get(tag);
  if (roles === undefined) reg.kinds.index.set(tag, roles = new Map());
  let kind = roles.get(role);
  if (kind === undefined) {
    kind = reg.kinds.list.length;
    roles.set(role, kind);
    reg.kinds.list.push([tag.toLowerCase(), role]);
  }
  return kind;
}

class Reader {
  // One pass over every element of the document, its open shadow roots and same-origin
  // iframes, in document order (a shadow root right after its host). This is the hot loop of
  // read_page: most elements cost a tag lookup, a control a handful of DOM calls, and a
  // plain control that no mutation touched since the last read two (visibility, :disabled).
  constructor(all, limit) {
    this.all = all;
    this.limit = limit;
    this.rows = [];
    this.texts = [];  // a row's JSON when known already
    this.seen = new Map();  // role -> name -> row index, or -1 once ambiguous
    this.ambiguous = [];
    this.elements = new Map();  // row index -> element, for rows that may need a hint
    this.roots = [];
    this.forms = new Map();  // form field -> its value, for readAgain()
  }

  root(root, inDocument) {
    this.roots.push(root);
    const doc = root.ownerDocument || root;
    const t = reg.tracking;
    let rich = t.rich.get(root);
    if (rich === undefined) t.rich.set(root, rich = new Set(root.querySelectorAll(RICH)));
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    const all = this.all;
    let el = walker.nextNode();
    while (el) {
      if (this.rows.length >= this.limit) return;
      const tag = el.tagName;
      if (SKIP.has(tag)) {
        el = skipSubtree(walker);
        continue;
      }
      const flagged = rich.size !== 0 && rich.has(el);
      if (!flagged && inDocument && PLAIN_TAGS.has(tag)) {
        if (!this.plain(el, tag) && all && TEXT_TAGS.has(tag)) this.text(el, tag);
      } else if (flagged || NATIVE_INTERACTIVE.has(tag) || CLICKABLE_TAGS.has(tag)) {
        this.control(el, tag, flagged, inDocument);
      } else if (all && (HEADINGS[tag] || TEXT_TAGS.has(tag))) {
        this.text(el, tag);
      }
      if (SHADOW_HOSTS.has(tag) || tag.includes("-")) {
        const shadow = el.shadowRoot;
        if (shadow) this.root(shadow, false);
      } else if (tag === "IFRAME" || tag === "FRAME") {
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (inner && inner.documentElement) this.root(inner, false);
      }
      el = walker.nextNode();
    }
  }

  plain(el, tag) {
    // A link, button or summary without RICH attributes, in the document itself. Its row
    // (kind, name, href, strong hint) is kept until a mutation marks it dirty; false when it
    // is not interactive (a link without href).
    const t = reg.tracking;
    let entry = t.rows.get(el);
    // A kept strong hint must still be unique: another element may have taken the same id.
    if (entry === undefined || entry.epoch !== t.epoch || t.dirty.has(el) ||
      (entry.strong && strongSelector(el) !== entry.strong)) {
      const role = roleOf(el, false);
      if (!isInteractive(el, role, false)) {
        t.rows.delete(el);
        return false;
      }
      const name = nameOf(el, false);
      const row = [refOf(el, true), kindIndex(tag, role), name];
      if (tag === "A") row.push({ href: el.getAttribute("href") });
      const strong = strongSelector(el);
      if (strong) withHint(row, strong);
      entry = { epoch: t.epoch, role, name, row, text: JSON.stringify(row), strong };
      t.rows.set(el, entry);
      t.dirty.delete(el);
    }
    if (!el.checkVisibility(VISIBLE)) return true;
    let row = entry.row;
    let text = entry.text;
    if (tag === "BUTTON" && el.matches(":disabled")) {
      row = row.slice();
      row[3] = { disabled: true };
      text = undefined;
    }
    this.push(el, row, text, entry.role, entry.name, !!entry.strong, true);
    return true;
  }

  control(el, tag, rich, inDocument) {
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") this.forms.set(el, formKey(el));
    const role = roleOf(el, rich);
    if (!isInteractive(el, role, rich)) {
      if (this.all && (HEADINGS[tag] || TEXT_TAGS.has(tag))) this.text(el, tag);
      return;
    }
    if (!el.checkVisibility(VISIBLE)) return;
    const name = nameOf(el, rich);
    const row = [refOf(el, true), kindIndex(tag, role), name];
    const state = stateOf(el, role, rich);
    if (state) row.push(state);
    const strong = strongSelector(el);
    // Inside a frame or shadow root even a strong selector needs its host's in front.
    const hint = inDocument ? strong : hintOf(el);
    if (hint) withHint(row, hint);
    this.push(el, row, undefined, role, name, !!strong, inDocument);
  }

  push(el, row, text, role, name, strong, inDocument) {
    // Every row counts towards role+name ambiguity (a row without a hint is found by role and
    // name, which must then be unique); those without a hint of their own get a path later.
    const index = this.rows.length;
    let names = this.seen.get(role);
    if (names === undefined) this.seen.set(role, names = new Map());
    const prior = names.get(name);
    if (prior === undefined) names.set(name, index);
    else {
      if (prior >= 0) { this.ambiguous.push(prior); names.set(name, -1); }
      this.ambiguous.push(index);
    }
    if (!strong && inDocument) this.elements.set(index, el);
    this.rows.push(row);
    this.texts.push(text);
  }

  text(el, tag) {
    const level = HEADINGS[tag];
    if (level) {
      if (!el.checkVisibility()) return;
      const text = clean(el.innerText, 120);
      if (text) { this.rows.push([0, "h", level, text]); this.texts.push(undefined); }
    } else {
      if (tag === "LABEL" && el.control) return;  // its control carries the name
      if (!el.checkVisibility()) return;
      const text = clean(ownText(el), 200);
      if (text) { this.rows.push([0, "t", text]); this.texts.push(undefined); }
    }
  }

  finish() {
    // Hints for controls whose role and name another control shares.
    for (const i of this.ambiguous) {
      const el = this.elements.get(i);
      if (el) {
        this.rows[i] = withHint(this.rows[i].slice(), selectorOf(el));
        this.texts[i] = undefined;
      }
    }
  }
}
