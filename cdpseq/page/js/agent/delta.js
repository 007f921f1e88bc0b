// The state delta: what an act changed on the page, as the page model tells it (model.js): the
// entries before the first step, kept in the journal, against the entries once the page settled.
//
// An element that came into view appeared; one that went out of view, removed or hidden by any
// means (a class, a style, an ancestor), disappeared; one that stayed and whose name, text,
// value or states differ changed. A container that appeared (a dialog, a table, a list, a
// menu, a form...) is reported once, with its name, its size, its first lines of text and its
// controls with refs, so that the next act can use them without reading the page; what is
// inside it is not reported again. The lists are capped; the totals say how many there were.
//
// What the entries carry for the delta alone (classes, a table's order) is in facts.js; how
// elements rendered again are told from new ones is in pairing.js; how an element's entry
// changed (its fields, the items a reorder moved) is in changes.js.

const CONTAINER_CONTROLS = 8;
const CONTAINER_LINES = 3;
const ITEM_ROLES = { listbox: /^option$/, menu: /^menuitem/, menubar: /^menuitem/,
  tree: /^treeitem$/, tablist: /^tab$/, radiogroup: /^radio$/, toolbar: /./, grid: /^(row|gridcell)$/ };

function delta(args) {
  return withWalkMemos(() => changesSince(args));
}

function composedPath(node) {
  const path = [];
  for (let p = node; p; p = composedParent(p) || (p.ownerDocument && p.ownerDocument.defaultView &&
    p.ownerDocument.defaultView.frameElement)) path.push(p);
  return path.reverse();
}

function documentOrder(a, b) {
  // Order across shadow roots and frames: the first place the two paths part decides.
  const pa = composedPath(a), pb = composedPath(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  if (i === pa.length) return -1;
  if (i === pb.length) return 1;
  const x = pa[i], y = pb[i];
  if (x.getRootNode() !== y.getRootNode()) return x.getRootNode() instanceof ShadowRoot ? -1 : 1;
  return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

function inOrder(items) {
  return items.length <= 500 ? items.sort((a, b) => documentOrder(a[0], b[0])) : items;
}

function shownStates(states) {
  // The states worth saying of an element (not focus: the delta says where focus went).
  if (!states) return null;
  const out = {};
  for (const key in states) {
    // Not selected is what options mostly are: only being selected is worth saying.
    if (key !== "focused" && key !== "inputType" && !(key === "selected" && !states[key])) {
      out[key] = states[key];
    }
  }
  for (const _ in out) return out;
  return null;
}

function controlList(controls, mint, texts = null) {
  // Up to CONTAINER_CONTROLS controls, each with a context when its role and name repeat (of
  // a removed row: the text its entries had, from `texts`).
  const counts = new Map();
  for (const [, e] of controls) counts.set(`${e.role}\n${e.name}`, (counts.get(`${e.role}\n${e.name}`) || 0) + 1);
  return controls.slice(0, CONTAINER_CONTROLS).map(([node, e]) => {
    const item = report(node, e, mint);
    delete item.tag;
    if (!item.context && counts.get(`${e.role}\n${e.name}`) > 1) {
      const row = !node.isConnected && texts && node.closest(ROW_SELECTOR);
      const text = row && clean(texts.get(row) || "", 40);
      const context = node.isConnected ? contextOf(node, e.name)
        : text ? `${row.tagName === "TR" ? "row" : "item"}: ${JSON.stringify(text)}` : null;
      if (context) item.context = context;
    }
    return item;
  });
}

function report(el, entry, mint) {
  // One element as the delta reports it: ref, tag, role, name or text, states, selector hint.
  const out = {};
  const ref = mint ? refOf(el, true) : reg.byEl.get(el);
  if (ref !== undefined) out.ref = ref;
  out.tag = el.tagName.toLowerCase();
  out.role = entry.role;
  const name = entry.kind === "text" || entry.kind === "live" ? entry.text : entry.name;
  if (name) out.name = clean(name, 50);
  const states = shownStates(entry.states);
  if (states && entry.kind !== "heading") out.states = states;
  if (entry.kind === "control" && !name) {
    const context = el.isConnected && contextOf(el, "");
    if (context) out.context = context;
  }
  out.selector = el.isConnected ? hintOf(el) : selectorOf(el);
  return out;
}

function entriesIn(root) {
  // The model's entries inside root, in the order the page renders them (the flat tree: shadow
  // roots, what their slots show, frames). Iterative: a tree may be nested deeper than the
  // JavaScript stack goes.
  const found = [];
  const pending = [];  // the nodes still to visit, the next one last
  const later = nodes => { for (let i = nodes.length - 1; i >= 0; i--) pending.push(nodes[i]); };
  later(flatKids(root));
  while (pending.length) {
    const el = pending.pop();
    if (el.nodeType !== 1) continue;
    const entry = model.entries.get(el);
    if (entry) found.push([el, entry]);
    later(flatKids(el));
    if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { doc = null; }
      if (doc) later(flatKids(doc));  // a frame's document comes before the frame's children
    }
  }
  return found;
}

function sizeOf(el, role, inside) {
  if (el.tagName === "TABLE" || role === "table") {
    const rows = el.tBodies ? Array.from(el.tBodies).reduce((n, body) => n + body.rows.length, 0) : 0;
    return `${rows} row${rows === 1 ? "" : "s"}`;
  }
  if (role === "list") {
    const items = Array.from(el.children).filter(c => c.tagName === "LI" ||
      c.getAttribute("role") === "listitem" || c.tagName.includes("-")).length;
    return `${items} item${items === 1 ? "" : "s"}`;
  }
  // A tree's group of items (the children an expanded item shows) counts its items too.
  const pattern = ITEM_ROLES[role] || (role === "group" &&
    inside.some(([, e]) => e.role === "treeitem") &&
    inside.every(([, e]) => e.kind !== "control" || e.role === "treeitem") ? ITEM_ROLES.tree : null);
  const controls = inside.filter(([, e]) => e.kind === "control" && (!pattern || pattern.test(e.role)));
  const noun = pattern ? "item" : "control";
  if (!controls.length && !pattern) return null;
  return `${controls.length} ${noun}${controls.length === 1 ? "" : "s"}`;
}

function rowOf(node, container) {
  // The row or item of a container that node is in (itself maybe), or null.
  const row = node.closest ? node.closest(ROW_SELECTOR) : null;
  return row && !composedContains(row, container) ? row : null;  // not a row around it
}

function withLines(out, units, kept) {
  // Sets out.lines to the first CONTAINER_LINES of units (each [row] or [null, text]) that
  // `kept` does not skip, each a whole row or text; out.linesMore counts the others (without
  // reading them: a table of thousands of rows that appears costs its first rows). A table's
  // header row is a line of its own, beyond the count.
  const lines = [];
  let header = null, more = 0;
  for (const [row, text] of units) {
    if (lines.length >= CONTAINER_LINES && (header !== null || !row || !headerRow(row))) {
      more++;
      continue;
    }
    const line = clean(row && row.isConnected ? rowText(row, null, 80) : text, 80);
    if (!line || (kept && !kept(line))) continue;
    if (row && header === null && headerRow(row)) header = line;
    else lines.push(line);
  }
  if (header !== null) lines.unshift(header);
  if (lines.length) out.lines = lines;
  if (more) out.linesMore = more;
}

function unitsIn(container, items) {
  // The lines a container's entries make, in order: one per row or item they are in (its text:
  // not a row cut in the middle), else one per text, heading or live region. A row that is a
  // control (a tree item, an option) is said by that control. A removed row can no longer be
  // read: its line is the text its entries had.
  const units = [], rows = new Map();
  for (const [node, e] of items) {
    if (e.kind === "control") continue;
    const text = e.kind === "heading" ? e.name : e.text;
    const row = rowOf(node, container);
    if (!row) {
      units.push([null, text]);
      continue;
    }
    let unit = rows.get(row);
    if (!unit) {
      rows.set(row, unit = [row, row.isConnected ? null : ""]);
      const own = model.entries.get(row);
      if (!own || own.kind !== "control") units.push(unit);
    }
    if (!row.isConnected && text) unit[1] += (unit[1] ? " " : "") + text;
  }
  return units;
}

function summary(el, entry) {
  // A container that appeared: itself, its size, its first lines and its controls. A live
  // region (an alert, a toast) is said by its text.
  const out = report(el, entry, true);
  const inside = entriesIn(el);
  const size = entry.kind === "container" ? sizeOf(el, entry.role, inside) : null;
  if (size) out.size = size;
  const units = unitsIn(el, inside);
  if (entry.text) units.unshift([null, entry.text]);
  if (entry.kind === "live" && !entry.text && units.length) {
    const [row, text] = units.shift();
    out.name = clean(row ? rowText(row, null, 50) : text, 50);
  }
  withLines(out, units, line => line !== entry.name && line !== out.name);
  const controls = inside.filter(([, e]) => e.kind === "control");
  if (controls.length) {
    out.controls = controlList(controls, true);
    if (controls.length > CONTAINER_CONTROLS) out.controlsMore = controls.length - CONTAINER_CONTROLS;
  }
  return out;
}

function homeOf(el) {
  // The nearest container around el that is still on the page with an entry; a removed
  // subtree is followed to where it was removed from.
  for (let p = composedParent(el) || model.placed.get(el); p;
    p = composedParent(p) || model.placed.get(p)) {
    const entry = model.entries.get(p);
    if (entry && entry.kind === "container") return [p, entry];
  }
  return null;
}

const GROUP_AT = 3;

function grouped(items, verb) {
  // Items that came into (or went from) one container that stays, three or more, as one:
  // "3 rows added" to a table, with their first lines and controls, in the first item's place.
  const homes = new Map();
  for (const item of items) {
    const home = homeOf(item[0]);
    if (!home) continue;
    if (!homes.has(home[0])) homes.set(home[0], [home[1], []]);
    homes.get(home[0])[1].push(item);
  }
  const out = [];
  const done = new Set();
  for (const item of items) {
    const home = homeOf(item[0]);
    const group = home && homes.get(home[0]);
    if (!group || group[1].length < GROUP_AT) { out.push(item); continue; }
    if (done.has(home[0])) continue;
    done.add(home[0]);
    out.push([home[0], group[0], group[1], verb]);
  }
  return out;
}

function groupReport(el, entry, items, verb, mint) {
  const out = report(el, entry, true);
  delete out.states;
  const rows = new Set(items.map(([node]) => rowOf(node, el)));
  rows.delete(null);
  // Rows of a table, items of a list or a tree (its tree items are its items), else elements.
  const pattern = ITEM_ROLES[entry.role];
  const asItems = pattern && items.every(([, e]) => e.kind === "control" && pattern.test(e.role));
  const unit = rows.size ? (entry.role === "table" || entry.role === "grid" ? "row" : "item")
    : asItems ? "item" : "element";
  const count = rows.size || items.length;
  out[verb] = `${count} ${unit}${count === 1 ? "" : "s"}`;
  // A line per row (its own text), or per text when they are not in rows.
  withLines(out, unitsIn(el, items), null);
  const controls = items.filter(([, e]) => e.kind === "control");
  if (controls.length) {
    out.controls = controlList(controls, mint, mint ? null : textsByRow(items));
    if (controls.length > CONTAINER_CONTROLS) out.controlsMore = controls.length - CONTAINER_CONTROLS;
  }
  return out;
}

function insideAny(node, set) {
  for (let p = composedParent(node); p; p = composedParent(p)) if (set.has(p)) return true;
  return false;
}

function changesSince(args) {
  refreshModel();
  const journal = model.journal || new Map();
  if (!args.keep) model.journal = null;  // kept: a settle probe's delta, maybe not the last
  const limit = args.limit || 15;
  const appeared = [], disappeared = [], changed = [];
  for (const [el, before] of journal) {
    const after = model.entries.get(el) || null;
    if (!before && after) appeared.push([el, after]);
    else if (before && !after) disappeared.push([el, before]);
    else if (before && after && before.sig !== after.sig) changed.push([el, before, after]);
  }
  const [shown, hidden, pairs] = pairRerendered(inOrder(appeared), inOrder(disappeared));
  appeared.length = 0;
  appeared.push(...shown);
  disappeared.length = 0;
  disappeared.push(...hidden);
  const replaced = [];
  for (const [[oldEl, before], [newEl, after]] of pairs) {
    if (before.sig !== after.sig) changed.push([newEl, before, after]);
    const oldRef = reg.byEl.get(oldEl);
    if (oldRef !== undefined && after.kind === "control") {
      replaced.push({ from: oldRef, to: refOf(newEl, true), role: after.role,
        ...(after.name ? { name: clean(after.name, 50) } : {}) });
    }
  }
  // A container, or a live region (an alert with its dismiss button), comes with what it holds.
  const whole = ([, e]) => e.kind === "container" || e.kind === "live";
  const came = new Set(appeared.filter(whole).map(([el]) => el));
  const tops = inOrder(appeared.filter(([el]) => !insideAny(el, came)));
  const went = new Set(disappeared.filter(whole).map(([el]) => el));
  const gone = inOrder(disappeared.filter(([el]) => !insideAny(el, went)));
  const out = { appeared: [], disappeared: [], changed: [] };
  // Rows added to a table that stays, then blocks without a role that came whole (blocks.js).
  const cameGroups = withBlocks(grouped(tops, "added"), appeared);
  const wentGroups = withBlocks(grouped(gone, "removed"));
  for (const [el, entry, items, verb] of cameGroups.slice(0, limit)) {
    out.appeared.push(items ? groupReport(el, entry, items, verb, true)
      : whole([el, entry]) ? summary(el, entry) : report(el, entry, true));
  }
  for (const [el, entry, items, verb] of wentGroups.slice(0, limit)) {
    if (items) {
      out.disappeared.push(groupReport(el, entry, items, verb, false));
      continue;
    }
    const item = report(el, entry, false);
    if (entry.kind === "container") {
      const inside = disappeared.filter(([node]) => node !== el && insideAny(node, new Set([el])));
      if (inside.length) item.size = `${inside.length} element${inside.length === 1 ? "" : "s"}`;
    }
    out.disappeared.push(item);
  }
  // What changed inside rows: a table or list whose rows did not change in content, only in
  // order, was sorted.
  const moved = [...appeared, ...disappeared, ...changed.map(([el]) => [el])].map(([el]) => el);
  const fields = inOrder(changed).map(([el, before, after]) => [el, after,
    fieldsChanged(before, after)]);
  // A table that says its sort column changed says it once: not again as its headers' own
  // sort states (each header, or the button in it, carries aria-sort's state).
  const resorted = new Set(fields.filter(([, e, list]) => e.kind === "container" &&
    list.some(([field]) => field === "sort")).map(([el]) => el));
  let changes = 0;
  for (const [el, after, list] of fields) {
    for (const [field, from, to, more] of list) {
      if (field === "order" && moved.some(node => rowContent(node, el))) continue;
      if (field === "sort" && after.kind === "control" && insideAny(el, resorted)) continue;
      changes++;
      if (out.changed.length >= limit) continue;
      const item = report(el, after, true);
      delete item.states;
      const short = value => typeof value === "string" ? clean(value, 80) : value;
      // A reorder names the items it moved (a card dragged to another place), with refs.
      const items = field === "order" ? movedItems(el) : null;
      out.changed.push({ ...item, field, from: short(from), to: short(to), ...more,
        ...(items && items.length ? { controls: controlList(items, true) } : {}) });
    }
  }
  const focus = model.armedFocus !== model.focused && model.focused &&
    !(model.touched && [...model.touched].some(el => el === model.focused ||
      el.contains(model.focused) || model.focused.contains(el))) ? model.focused : null;
  const focusEntry = focus && model.entries.get(focus);
  return {
    url: { from: watch.url, to: location.href },
    title: { from: watch.title, to: document.title },
    appeared: out.appeared, appearedTotal: cameGroups.length,
    disappeared: out.disappeared, disappearedTotal: wentGroups.length,
    changed: out.changed, changedTotal: changes,
    focus: focusEntry ? report(focus, focusEntry, true) : null,
    replaced: replaced.slice(0, limit), replacedTotal: replaced.length,
    overflow: false, next: reg.next,
  };
}
