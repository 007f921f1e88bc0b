// cdpseq's in-page agent. Evaluated in the isolated world named "cdpseq" of a tab's main frame:
// invisible to the page's own scripts, and — because Chromium keys isolated worlds by name — the
// same world (and so the same ref registry) for every CDP client attached to the tab. That is
// what makes a ref minted by one process usable by another.
//
// The registry maps ref numbers to elements (WeakRef) and back (WeakMap). Numbers start at the
// tab's floor + 1 (the highest ref ever minted in this tab, kept by the Python side), so a number
// is never given to a different element of the tab, even after a navigation.
//
// Every entry point returns plain JSON; failures are {error: CODE, reason}.
(() => {
  const VERSION = 10;
  if (globalThis.__cdpseq && globalThis.__cdpseq.version === VERSION) return VERSION;
  const reg = globalThis.__cdpseqRefs || (globalThis.__cdpseqRefs = {
    base: 0, next: 0, byRef: new Map(), byEl: new WeakMap(),
  });
  // Fields filled from a credential: their value reads as "••••" from then on, in every read
  // and delta, for every client (the registry is shared).
  if (!reg.secrets) reg.secrets = new WeakSet();
  // The [tag, role] pairs of read rows: list, and tag -> role -> index in list.
  if (!reg.kinds) reg.kinds = { list: [], index: new Map() };

  const INTERACTIVE_ROLES = new Set([
    "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "textbox", "searchbox", "combobox", "listbox", "slider",
    "spinbutton", "treeitem", "gridcell",
  ]);
  const TEXT_INPUTS = new Set([
    "", "text", "search", "email", "url", "tel", "password", "number",
  ]);
  const VALUE_INPUTS = new Set([
    "date", "time", "datetime-local", "month", "week", "color", "range",
  ]);
  const NATIVE_INTERACTIVE = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"]);
  // Tags that frameworks commonly make clickable with a handler the DOM does not show.
  const CLICKABLE_TAGS = new Set(["DIV", "SPAN", "LI", "IMG", "SVG", "I"]);

  const clean = (s, n = 80) => {
    s = (s || "").replace(/\s+/g, " ").trim();
    return s.length > n ? s.slice(0, n - 1) + "…" : s;
  };

  // -- registry -------------------------------------------------------------------------------

  function init(floor) {
    if (reg.next === 0) {
      reg.base = floor + 1;
      reg.next = floor + 1;
    }
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

  // -- tree walking (documents, same-origin iframes, open shadow roots) ------------------------

  function* walk(root) {
    const stack = [root];
    while (stack.length) {
      const node = stack.pop();
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
      if (node.nodeType !== 1) continue;
      yield node;
      if (node.shadowRoot) stack.push(node.shadowRoot);
      if (node.tagName === "IFRAME" || node.tagName === "FRAME") {
        let doc = null;
        try { doc = node.contentDocument; } catch (e) { doc = null; }
        if (doc && doc.documentElement) stack.push(doc.documentElement);
      }
    }
  }

  function deepQuery(selector) {
    // First match in document order across the document, open shadow roots and same-origin
    // iframes.
    const roots = [document];
    while (roots.length) {
      const root = roots.shift();
      let found = null;
      try { found = root.querySelector(selector); } catch (e) {
        return { error: "INVALID_SELECTOR", reason: `invalid CSS selector ${selector}` };
      }
      if (found) return { el: found };
      for (const el of root.querySelectorAll("*")) {
        if (el.shadowRoot) roots.push(el.shadowRoot);
        if (el.tagName === "IFRAME") {
          try { if (el.contentDocument) roots.push(el.contentDocument); } catch (e) { /* x-origin */ }
        }
      }
    }
    return null;
  }

  // -- roles, names, state --------------------------------------------------------------------

  function roleOf(el, rich = true) {
    const explicit = rich && el.hasAttributes() && el.getAttribute("role");
    if (explicit) return explicit.split(" ")[0];
    const tag = el.tagName;
    switch (tag) {
      case "A": return el.hasAttribute("href") ? "link" : "generic";
      case "BUTTON": return "button";
      case "SELECT": return el.multiple || el.size > 1 ? "listbox" : "combobox";
      case "TEXTAREA": return "textbox";
      case "SUMMARY": return "button";
      case "OPTION": return "option";
      case "IMG": return "img";
      case "FORM": return "form";
      case "NAV": return "navigation";
      case "MAIN": return "main";
      case "DIALOG": return "dialog";
      case "H1": case "H2": case "H3": case "H4": case "H5": case "H6": return "heading";
      case "INPUT": {
        const type = (el.getAttribute("type") || "text").toLowerCase();
        if (type === "checkbox") return "checkbox";
        if (type === "radio") return "radio";
        if (type === "range") return "slider";
        if (type === "number") return "spinbutton";
        if (type === "search") return "searchbox";
        if (["button", "submit", "reset", "image"].includes(type)) return "button";
        if (el.hasAttribute("list")) return "combobox";
        return "textbox";
      }
    }
    if (el.isContentEditable) return "textbox";
    return "generic";
  }

  function nameOf(el, rich = true) {
    const tag = el.tagName;
    if (tag !== "INPUT" && tag !== "SELECT" && tag !== "TEXTAREA" && tag !== "IMG" &&
        (!rich || !el.hasAttributes())) {
      return clean(el.textContent);
    }
    const labelledby = el.getAttribute("aria-labelledby");
    if (labelledby) {
      const root = el.getRootNode();
      const text = labelledby.split(/\s+/).map(id => {
        const ref = root.getElementById ? root.getElementById(id) : null;
        return ref ? ref.textContent : "";
      }).join(" ");
      if (clean(text)) return clean(text);
    }
    const aria = el.getAttribute("aria-label");
    if (aria && aria.trim()) return clean(aria);
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (tag === "INPUT" && ["button", "submit", "reset"].includes(type)) {
        return clean(el.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""));
      }
      if (el.labels && el.labels.length) {
        return clean(Array.from(el.labels, l => l.innerText || l.textContent).join(" "));
      }
      return clean(el.getAttribute("placeholder") || el.getAttribute("title") || "");
    }
    if (tag === "IMG") return clean(el.getAttribute("alt") || el.getAttribute("title") || "");
    return clean(el.textContent || el.getAttribute("title") || "");
  }

  function isInteractive(el, role, rich = true) {
    const tag = el.tagName;
    if (tag === "A") return el.hasAttribute("href") || INTERACTIVE_ROLES.has(role);
    if (tag === "BUTTON" || tag === "SELECT" || tag === "TEXTAREA" || tag === "SUMMARY") return true;
    if (tag === "INPUT") return (el.getAttribute("type") || "").toLowerCase() !== "hidden";
    if (INTERACTIVE_ROLES.has(role)) return true;
    if (rich) {
      if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) {
        return true;
      }
      if (el.hasAttribute("onclick")) return true;
      if (CLICKABLE_TAGS.has(tag) && el.hasAttribute("tabindex")) return true;
    }
    if (CLICKABLE_TAGS.has(tag)) {
      // Framework click handlers leave no trace in the DOM; a pointer cursor that starts here
      // (not inherited from an interactive ancestor) is the common tell.
      const cursor = getComputedStyle(el).cursor;
      if (cursor === "pointer") {
        const parent = el.parentElement;
        return !parent || getComputedStyle(parent).cursor !== "pointer";
      }
    }
    return false;
  }

  function stateOf(el, role, rich = true) {
    // The element's state flags, or null when it has none (most controls).
    let out = null;
    const tag = el.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      out = {};
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (type === "checkbox" || type === "radio") out.checked = el.checked;
      else if (type === "password" || reg.secrets.has(el)) out.value = el.value ? "••••" : "";
      else if (tag === "SELECT") {
        const opt = el.selectedOptions && el.selectedOptions[0];
        out.value = opt ? clean(opt.label || opt.text, 60) : "";
      } else out.value = clean(el.value, 60);
      if (type && tag === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(type)) {
        out.inputType = type;
      }
    } else if (role === "textbox" && el.isContentEditable) {
      out = { value: reg.secrets.has(el) ? "••••" : clean(el.innerText, 60) };
    }
    if (!rich || !el.hasAttributes()) {
      if (FORM_CONTROLS.has(tag) && el.matches(":disabled")) (out || (out = {})).disabled = true;
      if (tag === "A" && el.hasAttribute("href")) (out || (out = {})).href = el.getAttribute("href");
      return out;
    }
    out = out || {};
    const ariaChecked = el.getAttribute("aria-checked");
    if (ariaChecked !== null && out.checked === undefined) out.checked = ariaChecked === "true";
    if (disabled(el)) out.disabled = true;
    const expanded = el.getAttribute("aria-expanded");
    if (expanded !== null) out.expanded = expanded === "true";
    const selected = el.getAttribute("aria-selected");
    if (selected !== null) out.selected = selected === "true";
    if (tag === "A" && el.hasAttribute("href")) out.href = el.getAttribute("href");
    for (const _ in out) return out;
    return null;
  }

  // -- selector hints -------------------------------------------------------------------------

  const siblingIndex = new WeakMap();
  function nthOfType(el) {
    const parent = el.parentNode;
    if (!parent) return 1;
    let map = siblingIndex.get(parent);
    if (!map) {
      map = new Map();
      const counts = {};
      for (const kid of parent.children) {
        counts[kid.tagName] = (counts[kid.tagName] || 0) + 1;
        map.set(kid, counts[kid.tagName]);
      }
      siblingIndex.set(parent, map);
    }
    return map.get(el) || 1;
  }

  const cssEscape = s => (globalThis.CSS && CSS.escape ? CSS.escape(s) : s);

  function strongSelector(el) {
    // A selector that names this element on purpose: test id, stable-looking id, form name.
    if (!el.hasAttributes()) return null;
    const testid = el.getAttribute("data-testid");
    if (testid) return `[data-testid="${testid}"]`;
    if (el.id && !/\d{3,}|^:/.test(el.id)) return `#${cssEscape(el.id)}`;
    const name = el.getAttribute("name");
    if (name && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA")) {
      return `${el.tagName.toLowerCase()}[name="${name}"]`;
    }
    return null;
  }

  function selectorOf(el) {
    const strong = strongSelector(el);
    if (strong) return strong;
    const parts = [];
    let node = el;
    while (node && node.nodeType === 1 && parts.length < 6) {
      if (node !== el && node.id && !/\d{3,}/.test(node.id)) {
        parts.unshift(`#${cssEscape(node.id)}`);
        break;
      }
      const tag = node.tagName.toLowerCase();
      if (tag === "html" || tag === "body") { parts.unshift(tag); break; }
      parts.unshift(`${tag}:nth-of-type(${nthOfType(node)})`);
      node = node.parentNode;
    }
    return parts.join(" > ");
  }

  function hintOf(el) {
    // Elements inside iframes or shadow roots: the host's hint, then ">>", then the inner hint.
    let hint = selectorOf(el);
    let root = el.getRootNode();
    while (true) {
      if (root instanceof ShadowRoot) {
        hint = `${selectorOf(root.host)} >> ${hint}`;
        root = root.host.getRootNode();
      } else if (root.defaultView && root.defaultView.frameElement) {
        const frame = root.defaultView.frameElement;
        hint = `${selectorOf(frame)} >> ${hint}`;
        root = frame.getRootNode();
      } else {
        return hint;
      }
    }
  }

  // -- read_page ------------------------------------------------------------------------------

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

  function skipSubtree(walker) {
    let next = walker.nextSibling();
    while (!next && walker.parentNode()) next = walker.nextSibling();
    return next;
  }

  // -- change tracking, so a repeated read of an unchanged page costs next to nothing --------
  //
  // A counter that moves on every DOM mutation (style-only churn aside) in every root a full
  // read walked, and on the events after which a page can look different without a mutation:
  // input and change (form values are properties), focus and hover (:focus, :hover styles),
  // resize (media queries). readAgain() also re-checks form values and looks for shadow roots
  // and frames no read has walked yet; anything off and it reads in full.

  //
  // The same observer keeps what a read can reuse. Every element a mutation may have changed
  // the name of (the mutated node and its ancestors, across shadow roots) goes into `dirty`; a
  // control outside it keeps the name, kind, hint and row text the last read computed for it
  // (`rows`). A batch of mutations too big to mark moves `epoch` on, which voids every cached
  // row. Attribute changes that can make elements interactive, and added elements, void the
  // cached query results of RICH (`richStale`).

  const TRACKING = 2;  // the shape of reg.tracking; a newer agent replaces an older one's
  const RICH_NAMES = new Set(["role", "onclick", "tabindex", "contenteditable", "aria-label",
    "aria-labelledby", "aria-checked", "aria-disabled", "aria-expanded", "aria-selected", "title"]);
  const MAX_MARKED_RECORDS = 2000;

  function noteMutations(records) {
    const t = reg.tracking;
    const marked = records.length <= MAX_MARKED_RECORDS ? new Set() : null;
    let counted = false;
    for (const r of records) {
      if (r.type === "attributes") {
        // Style-only churn (animations, hover effects) is not a change of content.
        if (r.attributeName === "style") continue;
        if (RICH_NAMES.has(r.attributeName)) t.richStale = true;
      } else if (r.type === "childList" && !t.richStale) {
        for (const node of r.addedNodes) if (node.nodeType === 1) t.richStale = true;
      }
      counted = true;
      if (!marked) continue;
      for (let n = r.target; n && !marked.has(n); n = n.parentNode || n.host) {
        marked.add(n);
        t.dirty.add(n);
      }
    }
    if (!marked && counted) t.epoch++;
    if (counted) t.version++;
  }

  if (!reg.tracking || reg.tracking.shape !== TRACKING) {
    if (reg.tracking) reg.tracking.observer.disconnect();
    const tracking = reg.tracking = {
      shape: TRACKING, version: 0, roots: new WeakSet(), values: new Map(),
      dirty: new WeakSet(), epoch: 0, rows: new WeakMap(), rich: new WeakMap(), richStale: false,
    };
    tracking.observer = new MutationObserver(noteMutations);
    for (const type of ["input", "change", "focusin", "focusout", "mouseover", "mouseout",
      "resize", "pageshow"]) {
      window.addEventListener(type, () => { tracking.version++; }, true);
    }
  }

  function track(root) {
    if (reg.tracking.roots.has(root)) return;
    reg.tracking.roots.add(root);
    reg.tracking.observer.observe(root, { subtree: true, childList: true, attributes: true,
      characterData: true });
  }

  function formKey(el) {
    return el.type === "checkbox" || el.type === "radio" ? String(el.checked)
      : el.tagName === "SELECT" ? String(el.selectedIndex) : el.value;
  }

  function unchangedSince(args) {
    const t = reg.tracking;
    noteMutations(t.observer.takeRecords());
    if (t.version !== args.version || location.href !== args.url ||
        document.title !== args.title) {
      return false;
    }
    for (const [el, key] of t.values) if (!el.isConnected || formKey(el) !== key) return false;
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.currentNode; el; el = walker.nextNode()) {
      if (el.shadowRoot && !t.roots.has(el.shadowRoot)) return false;
      if (el.tagName === "IFRAME") {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc && !t.roots.has(doc)) return false;
      }
    }
    return t.version === args.version;
  }

  function readAgain(opts) {
    return unchangedSince(opts) ? JSON.stringify({ unchanged: true }) : read(opts);
  }

  function read(opts) {
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
      if (entry === undefined || entry.epoch !== t.epoch || t.dirty.has(el)) {
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
        entry = { epoch: t.epoch, role, name, row, text: JSON.stringify(row), strong: !!strong };
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
      this.push(el, row, text, entry.role, entry.name, entry.strong, true);
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
      const index = this.rows.length;
      if (!strong) {
        let names = this.seen.get(role);
        if (names === undefined) this.seen.set(role, names = new Map());
        const prior = names.get(name);
        if (prior === undefined) names.set(name, index);
        else {
          if (prior >= 0) { this.ambiguous.push(prior); names.set(name, -1); }
          this.ambiguous.push(index);
        }
        if (inDocument) this.elements.set(index, el);
      }
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

  function elements(refs) {
    return refs.map(n => {
      const weak = reg.byRef.get(n);
      return (weak && weak.deref()) || null;
    });
  }

  // -- targets and actionability --------------------------------------------------------------

  function resolve(target) {
    if (target.element) return { el: target.element };
    if (target.ref !== undefined) return lookup(target.ref);
    const found = deepQuery(target.selector);
    if (!found) {
      return { error: "NODE_NOT_FOUND", reason: `no element matches selector ${target.selector}` };
    }
    return found;
  }

  function describe(el) {
    if (!el || el.nodeType !== 1) return String(el);
    let s = el.tagName.toLowerCase();
    if (el.id) s += `#${el.id}`;
    const cls = typeof el.className === "string" ? el.className.trim() : "";
    if (cls) s += "." + cls.split(/\s+/).slice(0, 2).join(".");
    return s;
  }

  function frameOffset(el) {
    // Offset of el's document viewport within the top-level viewport (same-origin iframes).
    let x = 0, y = 0;
    let win = el.ownerDocument.defaultView;
    while (win && win.frameElement) {
      const frame = win.frameElement;
      const rect = frame.getBoundingClientRect();
      const style = getComputedStyle(frame);
      x += rect.left + frame.clientLeft + parseFloat(style.paddingLeft);
      y += rect.top + frame.clientTop + parseFloat(style.paddingTop);
      win = frame.ownerDocument.defaultView;
    }
    return { x, y };
  }

  function hitTest(el, x, y) {
    // Deep elementFromPoint through same-origin iframes and open shadow roots, in top-level
    // viewport coordinates.
    let root = document;
    let ox = 0, oy = 0;
    let hit = null;
    for (let depth = 0; depth < 32; depth++) {
      const found = root.elementFromPoint(x - ox, y - oy);
      if (!found || found === hit) break;
      hit = found;
      if (hit.shadowRoot && hit.shadowRoot !== root) { root = hit.shadowRoot; continue; }
      if (hit.tagName === "IFRAME" || hit.tagName === "FRAME") {
        let doc = null;
        try { doc = hit.contentDocument; } catch (e) { doc = null; }
        if (!doc) break;
        const rect = hit.getBoundingClientRect();
        const style = getComputedStyle(hit);
        ox += rect.left + hit.clientLeft + parseFloat(style.paddingLeft);
        oy += rect.top + hit.clientTop + parseFloat(style.paddingTop);
        root = doc;
        continue;
      }
      break;
    }
    return hit;
  }

  function composedContains(el, node) {
    while (node) {
      if (node === el) return true;
      node = node.parentNode || node.host || null;
    }
    return false;
  }

  const FORM_CONTROLS = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTGROUP", "OPTION",
    "FIELDSET"]);
  function disabled(el) {
    if (el.getAttribute("aria-disabled") === "true") return true;
    return FORM_CONTROLS.has(el.tagName) && el.matches(":disabled");
  }

  function actionable(el, opts) {
    if (!el.isConnected) return { error: "STALE_REF", reason: "element was removed from the page" };
    if (!el.checkVisibility({ checkVisibilityCSS: true })) {
      const style = getComputedStyle(el);
      const why = style.display === "none" ? "hidden (display:none)"
        : style.visibility !== "visible" ? `hidden (visibility:${style.visibility})`
        : "hidden (an ancestor is not rendered)";
      return { error: "NOT_ACTIONABLE", reason: why, retry: true };
    }
    if (opts.enabled !== false && disabled(el)) {
      return { error: "NOT_ACTIONABLE", reason: "disabled", retry: true };
    }
    let rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) {
      return { error: "NOT_ACTIONABLE", reason: "zero-size", retry: true };
    }
    const win = el.ownerDocument.defaultView;
    if (rect.top < 0 || rect.left < 0 || rect.bottom > win.innerHeight ||
        rect.right > win.innerWidth || win !== window) {
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      rect = el.getBoundingClientRect();
    }
    const off = frameOffset(el);
    const rects = Array.from(el.getClientRects());
    const box = rects.find(r => r.width > 0 && r.height > 0) || rect;
    const x = off.x + box.left + box.width / 2;
    const y = off.y + box.top + box.height / 2;
    if (opts.hitTest !== false) {
      const hit = hitTest(el, x, y);
      if (hit && !composedContains(el, hit)) {
        // A label pointing at this control receives its clicks; that is fine.
        const label = hit.closest && hit.closest("label");
        if (!(label && label.control === el)) {
          return { error: "NOT_ACTIONABLE", reason: `covered by ${describe(hit)}`, retry: true };
        }
      }
    }
    return { x, y };
  }

  function setNativeValue(el, value) {
    // For inputs that text insertion cannot fill (date, color, range, ...): the native setter
    // (frameworks wrap the instance property), then the event they listen for.
    const proto = Object.getPrototypeOf(el);
    const setter = Object.getOwnPropertyDescriptor(proto, "value").set;
    setter.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  }

  function editable(el) {
    if (el.isContentEditable) return { kind: "contenteditable" };
    const tag = el.tagName;
    if (tag === "TEXTAREA") return el.readOnly ? null : { kind: "text" };
    if (tag === "INPUT") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (el.readOnly) return null;
      if (TEXT_INPUTS.has(type)) return { kind: "text" };
      if (VALUE_INPUTS.has(type)) return { kind: "value" };
    }
    return null;
  }

  // -- operations -----------------------------------------------------------------------------

  const ops = {
    point(el, args) { return actionable(el, args || {}); },

    focus(el) {
      el.focus();
      return { ok: true };
    },

    fill(el, args) {
      // A whole fill in one task, so no page script runs between the check and the typing
      // (focus cannot move away in between). Text fields get the text through the editing
      // pipeline (execCommand "insertText"), which fires a trusted input event with
      // inputType "insertText": what React, Vue and Angular listen to. Rich-text editors
      // (contenteditable) also handle beforeinput, which only real input fires, so for them
      // this returns {needsInput} with the content selected, and the caller sends
      // Input.insertText, then finishFill.
      const kind = editable(el);
      if (!kind) {
        return { error: "NOT_EDITABLE", reason: `${describe(el)} is not an editable field` };
      }
      const state = actionable(el, { hitTest: false });
      if (state.error) return state;
      // The element that takes focus: for a part of a contenteditable region, its editing host.
      let host = el;
      if (kind.kind === "contenteditable") {
        while (host.parentElement && host.parentElement.isContentEditable) host = host.parentElement;
      }
      host.focus();
      const focused = host.getRootNode().activeElement;
      if (focused !== host) {
        return { error: "NOT_ACTIONABLE", reason: `focus went to ${describe(focused)}`, retry: true };
      }
      if (args.secret) reg.secrets.add(el);
      if (kind.kind === "value") {
        setNativeValue(el, args.value);
        return ops.finishFill(el, args);
      }
      const doc = el.ownerDocument;
      if (kind.kind === "contenteditable") {
        const range = doc.createRange();
        range.selectNodeContents(el);
        const sel = doc.defaultView.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        return { needsInput: true, empty: !el.textContent };
      }
      try { el.select(); } catch (e) { /* some input types do not support select() */ }
      if (args.value === "") {
        if (el.value) doc.execCommand("delete");
      } else if (!doc.execCommand("insertText", false, args.value)) {
        return { needsInput: true, empty: !el.value };
      }
      return ops.finishFill(el, args);
    },

    finishFill(el, args) {
      if (!el.isContentEditable) el.dispatchEvent(new Event("change", { bubbles: true }));
      const now = el.isContentEditable ? el.innerText : el.value;
      return { matches: now.replace(/\r\n/g, "\n") === args.value.replace(/\r\n/g, "\n") };
    },

    clearSelection(el) {
      el.ownerDocument.execCommand("delete");
      return { ok: true };
    },

    select(el, args) {
      if (el.tagName !== "SELECT") {
        return { error: "NOT_EDITABLE", reason: `${describe(el)} is not a <select>` };
      }
      const state = actionable(el, { hitTest: false });
      if (state.error) return state;
      const options = Array.from(el.options);
      const want = args.value !== undefined ? args.value : args.label;
      const match = options.find(o => args.value !== undefined
        ? o.value === want : clean(o.label || o.text, 1000) === clean(want, 1000));
      if (!match) {
        const have = options.slice(0, 20).map(o => args.value !== undefined ? o.value : clean(o.label || o.text, 40));
        return {
          error: "OPTION_NOT_FOUND",
          reason: `no option with ${args.value !== undefined ? "value" : "label"} ${JSON.stringify(want)}; options: ${JSON.stringify(have)}`,
        };
      }
      if (match.disabled) return { error: "NOT_ACTIONABLE", reason: "that option is disabled" };
      el.focus();
      match.selected = true;
      el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return { value: match.value, label: clean(match.label || match.text, 80) };
    },

    checkedState(el) {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (el.tagName === "INPUT" && (type === "checkbox" || type === "radio")) {
        return { checked: el.checked };
      }
      const aria = el.getAttribute("aria-checked");
      if (aria !== null) return { checked: aria === "true" };
      return { error: "NOT_EDITABLE", reason: `${describe(el)} is not a checkbox, radio or switch` };
    },

    scrollIntoView(el) {
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      return { scrollX: window.scrollX, scrollY: window.scrollY };
    },
  };

  function call(op, target, args) {
    const found = resolve(target);
    if (!found || found.error) return found;
    return ops[op](found.el, args);
  }

  function scrollPage(args) {
    const dx = args.direction === "left" ? -args.pixels : args.direction === "right" ? args.pixels : 0;
    const dy = args.direction === "up" ? -args.pixels : args.direction === "down" ? args.pixels : 0;
    window.scrollBy({ left: dx, top: dy, behavior: "instant" });
    return { scrollX: window.scrollX, scrollY: window.scrollY };
  }

  // -- wait_for -------------------------------------------------------------------------------

  function pageText() {
    let text = document.body ? document.body.innerText : "";
    for (const el of walk(document.documentElement)) {
      if (el.shadowRoot) text += "\n" + el.shadowRoot.textContent;
      if (el.tagName === "IFRAME") {
        try { if (el.contentDocument && el.contentDocument.body) text += "\n" + el.contentDocument.body.innerText; } catch (e) { /* x-origin */ }
      }
    }
    return text;
  }

  function condition(args) {
    if (args.text !== undefined) return pageText().includes(args.text);
    if (args.textGone !== undefined) return !pageText().includes(args.textGone);
    if (args.url !== undefined) return location.href.includes(args.url);
    const found = deepQuery(args.selector);
    if (found && found.error) throw new Error(found.reason);
    const el = found && found.el;
    switch (args.state) {
      case "attached": return !!el;
      case "detached": return !el;
      case "hidden": return !el || !el.checkVisibility({ checkVisibilityCSS: true });
      default: return !!el && el.checkVisibility({ checkVisibilityCSS: true });
    }
  }

  function waitFor(args) {
    // Resolves true once the condition holds, false at the deadline. Checked on every DOM
    // mutation (batched per frame) and on a slow interval for changes mutations do not show
    // (layout, visibility through CSS).
    const started = performance.now();
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (value, error) => {
        if (done) return;
        done = true;
        observer.disconnect();
        clearInterval(timer);
        clearTimeout(deadline);
        if (error) reject(error); else resolve({ matched: value, waitedMs: Math.round(performance.now() - started) });
      };
      const check = () => {
        try { if (condition(args)) finish(true); } catch (e) { finish(false, e); }
      };
      let scheduled = false;
      const observer = new MutationObserver(() => {
        if (scheduled) return;
        scheduled = true;
        setTimeout(() => { scheduled = false; check(); }, 16);
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      const timer = setInterval(check, 100);
      const deadline = setTimeout(() => finish(false), args.timeoutMs);
      check();
    });
  }

  // -- watching: settle probe and state delta ------------------------------------------------
  //
  // arm() starts recording DOM mutations (with old values) and notes form values; the records
  // drive both the settle probe (when did the DOM last change, is a loading indicator visible)
  // and delta() (what appeared, disappeared or changed), so neither needs a second full read.

  const MAX_RECORDS = 50000;
  const SPINNERS = '[aria-busy="true"], .spinner, .loading, .skeleton, [role="progressbar"]';
  const watch = globalThis.__cdpseqWatch || (globalThis.__cdpseqWatch = {
    observer: null, records: [], overflow: false, lastMutation: 0, url: "", title: "",
    values: new Map(),
  });

  function onMutations(records) {
    let counted = false;
    for (const r of records) {
      // Style-only churn (animations, hover effects) is not a change of content.
      if (r.type !== "attributes" || r.attributeName !== "style") counted = true;
      if (watch.records.length < MAX_RECORDS) watch.records.push(r);
      else watch.overflow = true;
    }
    if (counted) watch.lastMutation = performance.now();
  }

  function noteValues(root) {
    for (const el of root.querySelectorAll("input, select, textarea")) {
      watch.values.set(el, fieldValue(el));
    }
  }

  function fieldValue(el) {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (type === "checkbox" || type === "radio") return { checked: el.checked };
    if (type === "password" || reg.secrets.has(el)) return { value: el.value ? "••••" : "" };
    return { value: clean(el.value, 60) };
  }

  function arm() {
    if (watch.observer) watch.observer.disconnect();
    watch.observer = new MutationObserver(onMutations);
    watch.records = [];
    watch.overflow = false;
    watch.values = new Map();
    watch.lastMutation = performance.now();
    watch.url = location.href;
    watch.title = document.title;
    const options = { subtree: true, childList: true, attributes: true, characterData: true,
      attributeOldValue: true, characterDataOldValue: true };
    const roots = [document];
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.currentNode; el; el = walker.nextNode()) {
      if (el.shadowRoot) roots.push(el.shadowRoot);
      if (el.tagName === "IFRAME") {
        try { if (el.contentDocument) roots.push(el.contentDocument); } catch (e) { /* x-origin */ }
      }
    }
    for (const root of roots) {
      watch.observer.observe(root, options);
      noteValues(root);
    }
    return { url: watch.url, title: watch.title };
  }

  function visibleSpinner() {
    for (const el of document.querySelectorAll(SPINNERS)) {
      if (el.checkVisibility({ checkVisibilityCSS: true, opacityProperty: true })) {
        const rect = el.getBoundingClientRect();
        if (rect.width > 0 && rect.height > 0) return describe(el);
      }
    }
    return null;
  }

  function probe() {
    if (!watch.observer) arm();
    return { quietMs: performance.now() - watch.lastMutation, spinner: visibleSpinner() };
  }

  function settleWait(args) {
    // Resolves once the DOM has been quiet for quietMs with no loading indicator visible, or
    // after maxMs; either way with what it saw.
    if (!watch.observer) arm();
    const started = performance.now();
    return new Promise(resolve => {
      const check = () => {
        const state = probe();
        const waited = performance.now() - started;
        if ((state.quietMs >= args.quietMs && !state.spinner) || waited >= args.maxMs) {
          resolve(state);
          return;
        }
        const untilQuiet = Math.max(args.quietMs - state.quietMs, 0);
        setTimeout(check, Math.max(Math.min(untilQuiet + 1, args.maxMs - waited, 50), 5));
      };
      check();
    });
  }

  // -- the delta ------------------------------------------------------------------------------

  const CONTAINER_ROLES = new Set(["form", "dialog", "alertdialog", "navigation", "main",
    "banner", "contentinfo", "complementary", "search", "region", "table", "list", "menu",
    "tablist", "listbox", "grid", "tree"]);
  const LIVE_ROLES = new Set(["alert", "status", "log", "marquee", "timer"]);

  function landmarkRole(el, role) {
    if (role !== "generic") return role;
    switch (el.tagName) {
      case "HEADER": return "banner";
      case "FOOTER": return "contentinfo";
      case "ASIDE": return "complementary";
      case "SECTION": return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby")
        ? "region" : "generic";
      case "TABLE": return "table";
      case "UL": case "OL": return "list";
      default: return role;
    }
  }

  function isTextLeaf(el) {
    if (el.childElementCount > 0 && !Array.from(el.children).every(c =>
      ["B", "I", "EM", "STRONG", "SPAN", "CODE", "SMALL", "BR", "A"].includes(c.tagName) &&
      c.childElementCount === 0)) {
      return false;
    }
    for (const node of el.childNodes) {
      if (node.nodeType === 3 && node.data.trim()) return true;
    }
    return false;
  }

  function kindOf(el) {
    // "control" (interactive), "container" (reported once, not its children), "leaf"
    // (heading, live region, text), or null (not meaningful).
    if (SKIP.has(el.tagName)) return null;
    const role = landmarkRole(el, roleOf(el));
    if (isInteractive(el, role)) return ["control", role];
    if (CONTAINER_ROLES.has(role)) return ["container", role];
    if (LIVE_ROLES.has(role) || el.hasAttribute("aria-live")) return ["leaf", role];
    if (HEADINGS[el.tagName]) return ["leaf", "heading"];
    if (isTextLeaf(el)) return ["leaf", "text"];
    return null;
  }

  function entry(el, role, mint) {
    const out = {};
    const ref = mint ? refOf(el, true) : reg.byEl.get(el);
    if (ref !== undefined) out.ref = ref;
    out.tag = el.tagName.toLowerCase();
    out.role = role;
    // Containers are named only by ARIA (their text is everything they hold); the selector
    // hint identifies them otherwise.
    const name = role === "text" ? clean(el.textContent, 50)
      : CONTAINER_ROLES.has(role) ? clean(el.getAttribute("aria-label") || "", 50)
      : clean(nameOf(el), 50);
    if (name) out.name = name;
    out.selector = el.isConnected ? hintOf(el) : selectorOf(el);
    return out;
  }

  function collect(root, connected, out, limit) {
    // Meaningful elements of an added or removed subtree, not descending into containers.
    const stack = [root];
    while (stack.length) {
      const el = stack.pop();
      if (el.nodeType !== 1 || SKIP.has(el.tagName)) continue;
      if (connected && !el.checkVisibility({ checkVisibilityCSS: true })) continue;
      const kind = kindOf(el);
      if (kind) {
        // Reported once: a container, a control or a text leaf stands for what it holds.
        out.total++;
        if (out.items.length < limit) out.items.push(entry(el, kind[1], connected));
        continue;
      }
      for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
    }
  }

  function insideAny(node, set) {
    for (let p = node.parentNode; p; p = p.parentNode || p.host) if (set.has(p)) return true;
    return false;
  }

  function meaningfulAncestor(el) {
    for (let p = el; p && p.nodeType === 1; p = p.parentElement) {
      const kind = kindOf(p);
      if (kind && kind[0] !== "container") return [p, kind[1]];
    }
    return null;
  }

  function delta(args) {
    const limit = args.limit || 15;
    const added = new Set(), removed = new Set();
    const attrs = new Map(), texts = new Map();
    for (const r of watch.records) {
      if (r.type === "childList") {
        for (const n of r.addedNodes) { if (removed.has(n)) removed.delete(n); else added.add(n); }
        for (const n of r.removedNodes) { if (added.has(n)) added.delete(n); else removed.add(n); }
        const textOnly = [...r.addedNodes, ...r.removedNodes].every(n => n.nodeType === 3);
        if (textOnly && r.target.nodeType === 1 && !texts.has(r.target)) {
          let old = "";
          for (const n of r.removedNodes) old += n.data;
          texts.set(r.target, { old, whole: true });
        }
      } else if (r.type === "characterData") {
        const el = r.target.parentElement;
        if (el && !texts.has(el)) texts.set(el, { old: r.oldValue, node: r.target });
      } else if (r.type === "attributes") {
        let m = attrs.get(r.target);
        if (!m) attrs.set(r.target, m = new Map());
        if (!m.has(r.attributeName)) m.set(r.attributeName, r.oldValue);
      }
    }
    const appeared = { items: [], total: 0 }, disappeared = { items: [], total: 0 };
    const addedRoots = [...added].filter(n => n.nodeType === 1 && n.isConnected && !insideAny(n, added));
    const removedRoots = [...removed].filter(n => n.nodeType === 1 && !n.isConnected && !insideAny(n, removed));
    // Shown or hidden through the hidden attribute or an inline display:none counts as
    // appearing or disappearing (the node stays, but for a reader it came or went).
    const shown = new Set(), hid = new Set();
    for (const [el, m] of attrs) {
      if (!el.isConnected || added.has(el) || insideAny(el, added)) continue;
      let was = null;
      if (m.has("hidden")) was = m.get("hidden") !== null;
      else if (m.has("style")) was = /display\s*:\s*none/.test(m.get("style") || "");
      if (was === null) continue;
      const visible = el.checkVisibility({ checkVisibilityCSS: true });
      if (was && visible) shown.add(el);
      else if (!was && !visible) hid.add(el);
    }
    for (const el of addedRoots) collect(el, true, appeared, limit);
    for (const el of shown) if (!insideAny(el, shown)) collect(el, true, appeared, limit);
    for (const el of removedRoots) collect(el, false, disappeared, limit);
    for (const el of hid) if (!insideAny(el, hid)) collect(el, false, disappeared, limit);

    const changed = { items: [], total: 0 };
    const seen = new Set();
    const push = (el, role, field, from, to) => {
      if (from === to) return;
      const key = field + ":" + (reg.byEl.get(el) || "") + ":" + el.tagName;
      changed.total++;
      if (changed.items.length >= limit || seen.has(el.tagName + field + from + to + key)) return;
      seen.add(el.tagName + field + from + to + key);
      changed.items.push({ ...entry(el, role, true), field, from, to });
    };
    const fresh = el => el.isConnected && !added.has(el) && !insideAny(el, added) &&
      !shown.has(el) && !insideAny(el, shown) && !hid.has(el) && !insideAny(el, hid);
    for (const [el, m] of attrs) {
      if (!fresh(el)) continue;
      const kind = kindOf(el) || meaningfulAncestor(el) && ["leaf", meaningfulAncestor(el)[1]];
      const role = kind ? kind[1] : landmarkRole(el, roleOf(el));
      for (const [name, old] of m) {
        const now = el.getAttribute(name);
        if (name === "class") {
          if (kind) push(el, role, "className", old || "", now || "");
        } else if (name === "disabled") {
          push(el, role, "disabled", old !== null, now !== null);
        } else if (name === "hidden") {
          push(el, role, "hidden", old !== null, now !== null);
        } else if (name === "aria-expanded" || name === "aria-selected" || name === "aria-checked") {
          push(el, role, name.slice(5), old, now);
        } else if (name === "aria-hidden") {
          push(el, role, "hidden", old === "true", now === "true");
        }
      }
    }
    for (const [el, t] of texts) {
      if (!fresh(el)) continue;
      const target = meaningfulAncestor(el);
      if (!target) continue;
      const [owner, role] = target;
      const now = owner.textContent;
      let before;
      if (owner === el && t.whole) before = t.old;
      else if (t.node) before = now.replace(t.node.data, t.old);
      else continue;
      push(owner, role, "text", clean(before, 50), clean(now, 50));
    }
    for (const [el, old] of watch.values) {
      if (!fresh(el)) continue;
      const now = fieldValue(el);
      const role = roleOf(el);
      if ("checked" in old) push(el, role, "checked", old.checked, now.checked);
      else push(el, role, "value", old.value, now.value);
    }
    return {
      url: { from: watch.url, to: location.href },
      title: { from: watch.title, to: document.title },
      appeared: appeared.items, appearedTotal: appeared.total,
      disappeared: disappeared.items, disappearedTotal: disappeared.total,
      changed: changed.items, changedTotal: changed.total,
      overflow: watch.overflow, next: reg.next,
    };
  }

  globalThis.__cdpseq = { version: VERSION, init, read, readAgain, elements, call, scrollPage, waitFor,
    arm, probe, settleWait, delta };
  return VERSION;
})()
