// The state delta: what appeared, disappeared or changed since arm(), from the watch's records.

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
  return withHintCounts(() => changesSince(args));
}

function changesSince(args) {
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
