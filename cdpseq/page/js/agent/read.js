// read_page: one walk over the page that writes a head line and one JSON row per element.

// Tags that are containers a reader notices (filter "all"), besides elements with a role.
const CONTAINER_TAGS = new Set(["UL", "OL", "TABLE", "FORM", "NAV", "MAIN", "DIALOG", "HEADER",
  "FOOTER", "ASIDE", "SECTION", "FIELDSET", "MENU"]);
// The elements that can host a shadow root (besides custom elements, whose names have a "-").
const SHADOW_HOSTS = new Set(["ARTICLE", "ASIDE", "BLOCKQUOTE", "BODY", "DIV", "FOOTER", "H1",
  "H2", "H3", "H4", "H5", "H6", "HEADER", "MAIN", "NAV", "P", "SECTION", "SPAN"]);

function read(opts) {
  return withWalkMemos(() => readRows(opts));
}

function readRows(opts) {
  // A head line (JSON), then one line per row (each a JSON array), so that the caller can
  // recognize a row it has seen before by its text alone, without decoding it:
  //   [ref, kind, name, state?, hint?] for interactive elements (and containers, with filter
  //   "all"), where kind indexes the head's `kinds` ([tag, role] pairs; the table only grows
  //   within a document, so an index keeps its meaning) and a missing or 0 hint means
  //   role+name is unique on the page (the caller writes that hint itself); [0, "h", level,
  //   text] for headings and [0, "t", text] for text (filter "all").
  // With opts.delta the rows are only those that differ from the last read of this document
  // (by any process: the baseline lives in the shared world), and the head says what went.
  const all = opts && opts.filter === "all";
  const limit = (opts && opts.limit) || Infinity;
  const narrow = opts && opts.narrow;
  let scope = null;
  if (narrow && narrow.scope) {
    const found = resolve(narrow.scope);
    if (!found || found.error) return JSON.stringify(found || { error: "NODE_NOT_FOUND" });
    scope = found.el;
  }
  const t = reg.tracking;
  noteMutations(t.observer.takeRecords());
  const version = t.version;
  const out = walkPage(all, limit, opts || {});  // rewalk.js: only what changed, when it can
  t.values = out.forms;
  const { rows, texts } = out;
  const body = [];
  for (let i = 0; i < rows.length; i++) {
    if (narrow && !narrowed(narrow, scope, rows[i], out.owners[i])) continue;
    body.push(texts[i] || JSON.stringify(rows[i]));
  }
  const head = { url: location.href, title: document.title, base: reg.base, next: reg.next,
    kinds: reg.kinds.list, truncated: rows.length >= limit, version, walk: out.walk };
  // A narrowed read is a partial look: the whole page was walked (so hints stay unique
  // page-wide), but it is not a read of the document and not the next delta's baseline; nor
  // is a whole walk asked for to check a patched read against (rewalk.js).
  const spliced = opts && (opts.limit || narrow || opts.wholeWalk) ? null
    : remember(head, all ? "all" : "interactive", body, opts);
  // One string: Chrome moves it much faster than the same data as a value tree.
  return [JSON.stringify(head), ...(spliced || body)].join("\n");
}

function narrowed(narrow, scope, row, el) {
  // Whether a row passes a narrowed read's options: inside the scope, of one of the roles,
  // intersecting the viewport.
  if (scope && !withinScope(scope, el)) return false;
  if (narrow.roles) {
    const role = row[0] ? reg.kinds.list[row[1]][1] : row[1] === "h" ? "heading" : "text";
    if (!narrow.roles.includes(role)) return false;
  }
  if (narrow.viewport) {
    const box = topBox(el);
    if (!box || box[0] >= innerWidth || box[1] >= innerHeight || box[0] + box[2] <= 0 ||
      box[1] + box[3] <= 0) return false;
  }
  return true;
}

function topBox(el) {
  // [x, y, width, height] of el's border box in the top viewport's CSS pixels, or null when it
  // has none (frames crossed by their content offsets, as geometry.js does).
  const rect = el.getBoundingClientRect();
  if (!rect.width && !rect.height && !el.getClientRects().length) return null;
  let x = rect.left, y = rect.top;
  for (const frame of frameChain(el)) {
    const offset = frameContentOffset(frame);
    x += offset.x;
    y += offset.y;
  }
  return [x, y, rect.width, rect.height];
}

function bounds(refs) {
  // [x, y, width, height] (rounded) of each ref's element, or null when it is gone or has no box.
  return refs.map(n => {
    const found = lookup(n);
    const box = found.el ? topBox(found.el) : null;
    return box ? box.map(v => Math.round(v)) : null;
  });
}

function remember(head, filter, rows, opts) {
  // Number this read among the reads of the document and keep it as the baseline of the next
  // delta read (by any process: the baseline lives in the shared world). With opts.delta the
  // head says what changed since the previous read: the rows that are new, those that went.
  // Else, with opts.splice naming the last read's rows (the caller holds them): the rows to
  // send instead, only what changed against those, placed by head.splices (splices.js).
  const previous = reg.lastRead;
  head.read = (previous ? previous.number : 0) + 1;
  reg.lastRead = { number: head.read, filter, rows, id: head.baseline = baselineId(head.read) };
  if (!opts || !opts.delta) {
    const same = opts && previous && opts.splice === previous.id && previous.filter === filter;
    const splices = same ? splicesBetween(previous.rows, rows) : null;
    if (splices) head.splices = splices.at;
    return splices && splices.rows;
  }
  deltaAgainst(head, previous, filter, rows);
}

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
  // The rows follow the page model's rules (model.js): the same kinds, names, states and
  // text, and a control's inside gives no text of its own (the text is its name).
  constructor(all, limit) {
    this.all = all;
    this.limit = limit;
    this.rows = [];
    this.texts = [];  // a row's JSON when known already
    this.owners = [];  // the element of each row (narrowed reads, hints, contexts)
    this.seen = new Map();  // role -> name -> row index, or -1 once ambiguous
    this.ambiguous = [];
    this.unnamed = [];
    this.hintable = [];  // row index -> true for a control that gets a path if ambiguous
    this.fieldsets = undefined;  // whether the document has a disabled fieldset, once asked
    this.roots = [];
    this.forms = new Map();  // form field -> its value, for readAgain()
    this.active = deepActive();
    this.inside = [];  // the controls whose subtree the walk is in
    this.scopes = [];  // the scopes (scopeOf) whose subtree the walk is in
    this.modal = topModal();
  }

  root(root, inDocument, only = false) {
    // root: a document or a shadow root (the elements under it), or an element (itself
    // included; with `only`, it alone: not its subtree, shadow root or frame). In document
    // order: a walk by firstElementChild and nextElementSibling, which goes past text and
    // costs less than a TreeWalker's nextNode.
    this.roots.push(root);
    const inside = this.inside;
    const depth = inside.length;
    const scopes = this.scopes;
    const scoped = scopes.length;
    let el = root.nodeType === 1 ? root : root.firstElementChild;
    while (el) {
      if (this.rows.length >= this.limit) break;
      while (inside.length > depth && !inside[inside.length - 1].contains(el)) inside.pop();
      while (scopes.length > scoped && !scopes[scopes.length - 1].el.contains(el)) scopes.pop();
      const tag = el.tagName;
      const flags = SKIP.has(tag) ? INERT_FLAG : richFlags(el);
      // Inert content (an inert attribute, or all but an open modal dialog) takes no input and
      // is left out of Chrome's accessibility tree: nothing in it is listed.
      const enter = !(flags & INERT_FLAG || (this.modal && outsideModal(el, this.modal)));
      if (enter) this.element(el, tag, flags, inDocument, only);
      if (only) break;
      let next = enter ? el.firstElementChild : null;
      while (!next && el !== root) {  // an element root's siblings are not its walk's
        next = el.nextElementSibling;
        if (next) break;
        el = el.parentNode;
        if (!el || el === root) break;
      }
      el = next;
    }
    inside.length = depth;
    scopes.length = scoped;
  }

  element(el, tag, flags, inDocument, alone = false) {
    // One element of the walk: its row, if any, and (unless alone) the shadow root or frame
    // document it holds, read in turn.
    const inside = this.inside;
    if (flags & SCOPE_FLAG) {
      const scope = scopeOf(el);
      if (scope) this.scopes.push(scope);
    }
    const flagged = flags !== 0;
    let control = false;
    if (!flagged && inDocument && PLAIN_TAGS.has(tag)) {
      control = this.plain(el, tag);
    } else if (flagged || NATIVE_INTERACTIVE.has(tag) || CLICKABLE_TAGS.has(tag)) {
      control = this.control(el, tag, flagged, inDocument);
    }
    if (!control && inside.length === 0) {
      if (this.all) this.other(el, tag, flagged);
      // A widget that says which of its items is active (a menu, a grid holding the focus
      // with aria-activedescendant) is listed with its controls: that is where its keys go.
      else if (flags & ACTIVE_FLAG) this.other(el, tag, flagged, true);
    }
    if (control && el.firstElementChild) inside.push(el);
    if (alone) return;
    if (SHADOW_HOSTS.has(tag) || tag.includes("-")) {
      const shadow = el.shadowRoot;
      if (shadow) {
        if (control) inside.push(el);
        this.root(shadow, false);
      }
    } else if (tag === "IFRAME" || tag === "FRAME") {
      let inner = null;
      try { inner = el.contentDocument; } catch (e) { inner = null; }
      if (inner && inner.documentElement) this.root(inner, false);
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
      if (tag === "A" && el.hasAttribute("href")) row.push({ href: el.getAttribute("href") });
      const strong = strongSelector(el);
      if (strong) withHint(row, strong);
      entry = { epoch: t.epoch, role, name, row, text: JSON.stringify(row), strong };
      t.rows.set(el, entry);
      t.dirty.delete(el);
    }
    if (!renders(el)) return true;
    let row = entry.row;
    let text = entry.text;
    // :disabled is the attribute, or a disabled fieldset around: matched only when the document
    // has one (one query per read instead of a selector match per button).
    const disabled = tag === "BUTTON" && (el.hasAttribute("disabled") ||
      (this.disabledFieldsets() && el.matches(":disabled")));
    // And what no mutation of el itself changes: its <details> opening, the scopes around it.
    const open = tag === "SUMMARY" ? disclosureOpen(el) : null;
    let state = null;
    if (disabled) state = { disabled: true };
    if (el === this.active) state = { ...state, focused: true };
    if (open !== null) state = { ...state, expanded: open };
    if (this.scopes.length) state = scopedState(this.scopes, state, false, entry.role);
    if (state) {
      row = row.slice();
      row[3] = { ...(row[3] || {}), ...state };
      text = undefined;
    }
    this.push(el, row, text, entry.role, entry.name, !!entry.strong, true);
    return true;
  }

  disabledFieldsets() {
    if (this.fieldsets === undefined) this.fieldsets = !!document.querySelector("fieldset[disabled]");
    return this.fieldsets;
  }

  control(el, tag, rich, inDocument) {
    // true when el is a control (even a hidden one: its inside is no text of the page).
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") this.forms.set(el, formKey(el));
    const role = roleOf(el, rich);
    if (!isInteractive(el, role, rich)) return false;
    if (!rendered(el, tag)) return true;
    const name = nameOf(el, rich);
    const row = [refOf(el, true), kindIndex(tag, role), name];
    let state = stateOf(el, role, rich, this.active);
    if (this.scopes.length) state = scopedState(this.scopes, state, rich, role);
    if (state) row.push(state);
    const strong = strongSelector(el);
    // Inside a frame or shadow root even a strong selector needs its host's in front.
    const hint = inDocument ? strong : hintOf(el);
    if (hint) withHint(row, hint);
    this.push(el, row, undefined, role, name, !!strong, inDocument);
    return true;
  }

  other(el, tag, rich, containerOnly = false) {
    // What filter "all" shows besides controls, by the page model's rules: headings,
    // containers (with a ref), and text, from whatever element holds it; with containerOnly,
    // the container alone.
    const candidate = rich || HEADINGS[tag] || CONTAINER_TAGS.has(tag);
    const kind = candidate ? classify(el, tag, rich) : null;
    if (containerOnly && (!kind || kind[0] !== "container")) return;
    if (!kind && (INLINE_TAGS.has(tag) || !holdsText(el))) return;
    if (!renders(el)) return;
    if (kind && kind[0] === "heading") {
      const text = clean(el.innerText, 120);
      const level = HEADINGS[tag] || Number(el.getAttribute("aria-level")) || 2;
      if (text) {
        this.rows.push([0, "h", level, text]);
        this.texts.push(undefined);
        this.owners.push(el);
      }
      return;
    }
    if (kind && kind[0] === "container" && (el.firstElementChild || el.textContent.trim())) {
      const row = [refOf(el, true), kindIndex(tag, kind[1]), containerName(el, kind[1])];
      // A container's states, as the page model has them (a tree's active item, a disabled
      // toolbar).
      const state = rich ? stateOf(el, kind[1], rich, this.active) : null;
      if (state) row.push(state);
      this.rows.push(withHint(row, hintOf(el)));
      this.texts.push(undefined);
      this.owners.push(el);
    }
    const text = !containerOnly && holdsText(el) ? clean(ownText(el), 200) : "";
    if (text) { this.rows.push([0, "t", text]); this.texts.push(undefined); this.owners.push(el); }
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
    if (!strong && inDocument) this.hintable[index] = true;
    if (!name) this.unnamed.push(index);
    this.rows.push(row);
    this.texts.push(text);
    this.owners.push(el);
  }

  finish() {
    // Hints for controls whose role and name another control shares; a context for those and
    // for controls without a name, so that a reader can tell them apart.
    // A row is copied once (the one the walk made may be kept for later reads: plain()) and
    // then given its hint and context; and once only, also a row both without a name and named
    // like another (a list's checkboxes).
    const copied = new Uint8Array(this.rows.length);
    for (const i of this.ambiguous) {
      if (this.hintable[i]) {
        this.rows[i] = withHint(this.rows[i].slice(), selectorOf(this.owners[i]));
        this.texts[i] = undefined;
        copied[i] = 1;
      }
    }
    const done = new Uint8Array(this.rows.length);
    for (const i of [...this.ambiguous, ...this.unnamed]) {
      if (done[i]) continue;
      done[i] = 1;
      const context = contextOf(this.owners[i], this.rows[i][2]);
      if (context) {
        this.rows[i] = withState(copied[i] ? this.rows[i] : this.rows[i].slice(), { context });
        this.texts[i] = undefined;
      }
    }
  }
}

function withState(row, more) {
  // A row with more state: [ref, kind, name, state or 0, hint?].
  if (row.length === 3) row.push(0);
  row[3] = row[3] ? { ...row[3], ...more } : more;
  return row;
}
