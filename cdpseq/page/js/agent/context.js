// Context for controls a name does not tell apart: the text of a control's row or list item,
// else the text a person sees beside it, else its aria-describedby text. Reads and deltas both
// use it.

const ROW_TAGS = { TR: "row", LI: "item", DT: "item", DD: "item", ARTICLE: "in" };
// Controls whose names are actions, not what a row is about ("Delete", "×", "Toggle").
const ACTION_ROLES = new Set(["button", "checkbox", "radio", "switch", "menuitem",
  "menuitemcheckbox", "menuitemradio"]);

function rowText(node, skip, limit = Infinity) {
  // The text a row shows of itself: without its action controls, labels of controls, what
  // is hidden from readers, and `skip` (the control being described). The walk stops once the
  // text has more than `limit` characters besides white space: clean(text, limit) is the same
  // then (it cuts at limit), and a wide grid row costs what its first cells do.
  // Whether text shows is asked of the element that holds it (checkVisibility looks at the
  // ancestors too), not of every wrapper on the way: a grid row is mostly wrappers.
  let seen = 0, holder = null, shows = false;
  const walk = (node, depth) => {
    if (seen > limit) return "";
    const type = node.nodeType;
    if (type === 3) {
      const data = node.data;
      if (!data.trim()) return data;
      const parent = node.parentElement || (node.parentNode && node.parentNode.host) || null;
      if (parent !== holder) {
        holder = parent;
        shows = !parent || renders(parent);
      }
      if (!shows) return "";
      seen += visibleLength(data);
      return data;
    }
    let kid;
    if (type === 1) {
      const tag = node.tagName;
      if (depth > 30 || node === skip || SKIP.has(tag)) return "";
      if (tag === "LABEL" && node.control) return "";
      const attributes = node.hasAttributes();
      if (attributes && node.getAttribute("aria-hidden") === "true") return "";
      // Only a role attribute or the tag can make an action role (roleOf): most of a row's
      // elements are asked no more.
      if (ACTION_TAGS.has(tag) || (attributes && node.getAttribute("role"))) {
        const role = roleOf(node);
        if (ACTION_ROLES.has(role) && isInteractive(node, role)) return "";
      }
      if (tag === "SLOT") {
        let text = "";
        for (const assigned of node.assignedNodes({ flatten: true })) {
          text += " " + walk(assigned, depth + 1);
          if (seen > limit) break;
        }
        return text;
      }
      kid = (node.shadowRoot || node).firstChild;
    } else {
      if (depth > 30) return "";
      kid = node.firstChild;
    }
    let text = "";
    for (; kid; kid = kid.nextSibling) {
      text += " " + walk(kid, depth + 1);
      if (seen > limit) break;
    }
    return text;
  };
  return walk(node, 0);
}

// The tags roleOf gives an action role without a role attribute (a button, a checkbox).
const ACTION_TAGS = new Set(["BUTTON", "SUMMARY", "INPUT"]);

function visibleLength(text) {
  // How many characters of text are not white space (\s): text.replace(/\s+/g, "").length,
  // without making the string.
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 ? c < 127 || !/\s/.test(text[i]) : c < 9 || (c > 13 && c < 32)) n++;
  }
  return n;
}
const ROW_ROLES = { row: "row", listitem: "item", option: "item", treeitem: "item",
  article: "in" };

function contextOf(el, name) {
  // For a control without a name, or one whose role and name another shares: the text of its
  // row or list item (its own name taken out), else of a label-like element just before it.
  if (!el) return null;
  // An action control is left out of its row's text anyway: its row's text is the same for
  // every action control in the row, so a read or delta computes it once (a grid row's "Edit",
  // "Delete" and icon buttons all need it).
  // So is what its row says of it, for every action control under the same parent.
  const role = roleOf(el);
  const shared = rowTexts !== null && ACTION_ROLES.has(role) && isInteractive(el, role);
  const parent = composedParent(el);
  let context = shared ? rowContexts.get(parent) : undefined;
  if (context === undefined) {
    context = rowContext(el, parent, shared);
    if (shared) rowContexts.set(parent, context);
  }
  if (context) return context;
  const near = nearText(el, role);
  if (near) return `near: ${JSON.stringify(near)}`;
  const ids = el.hasAttributes() && el.getAttribute("aria-describedby");
  const described = ids ? clean(byIds(el, ids).map(referencedText).join(" "), 40) : "";
  return described ? `desc: ${JSON.stringify(described)}` : null;
}

function rowContext(el, parent, shared) {
  // The text of the row or list item el is in (parent is el's), as a context; "" when none
  // within 12 levels has any.
  for (let p = parent, depth = 0; p && p.nodeType === 1 && depth < 12;
    p = composedParent(p), depth++) {
    const role = p.hasAttributes() ? p.getAttribute("role") : null;
    const kind = (role && ROW_ROLES[role]) || ROW_TAGS[p.tagName];
    if (!kind) continue;
    let text;
    if (shared) {
      text = rowTexts.get(p);
      if (text === undefined) rowTexts.set(p, text = clean(rowText(p, null, 40), 40));
    } else {
      text = clean(rowText(p, el, 40), 40);
    }
    if (text) return `${kind}: ${JSON.stringify(text)}`;
  }
  return "";
}

function outermostRow(parent) {
  // The outermost row or list item around a control within 12 levels from its parent, or null.
  // Within a walk each element around controls is looked at once (rowScopes: rowsAt), as the
  // controls of a list or grid share all but their last few levels.
  if (!rowScopes) {
    let scope = null;
    for (let p = parent, depth = 0; p && p.nodeType === 1 && depth < 12;
      p = composedParent(p), depth++) {
      if (isRowScope(p)) scope = p;
    }
    return scope;
  }
  const at = rowsAt(parent);
  let scope = null;
  for (let row = at.row; row && at.depth - rowScopes.get(row).depth < 12;
    row = rowScopes.get(row).up) scope = row;
  return scope;
}

function isRowScope(el) {
  const role = el.hasAttributes() ? el.getAttribute("role") : null;
  return !!((role && ROW_ROLES[role]) || ROW_TAGS[el.tagName]);
}

function rowsAt(node) {
  // {depth, row, up} of node: how many elements are around it, the nearest row or
  // list item at or around it, and the nearest one around node itself; kept for the walk.
  const chain = [];
  let known;
  for (let p = node; p && p.nodeType === 1 && (known = rowScopes.get(p)) === undefined;
    p = composedParent(p)) chain.push(p);
  let above = known || { depth: -1, row: null, up: null };
  for (let k = chain.length - 1; k >= 0; k--) {
    const p = chain[k];
    above = { depth: above.depth + 1, row: isRowScope(p) ? p : above.row, up: above.row };
    rowScopes.set(p, above);
  }
  return above;
}

// Roles whose label goes after them ("[x] Remember me"): text after one tells what it is.
const LABELLED_AFTER = new Set(["checkbox", "radio", "switch"]);

function nearText(el, role) {
  // Visible text right beside a control: just before it (a text node, an unassociated <label>,
  // a leaf element that is no control), or just after a checkbox or radio, where its label
  // goes. Looked for beside el, then beside the wrappers el is alone in (a <span> around a box).
  let node = el;
  for (let up = 0; up < 3; up++) {
    const text = besideText(node, "previousSibling") ||
      (LABELLED_AFTER.has(role) ? besideText(node, "nextSibling") : "");
    if (text) return text;
    const parent = node.parentElement;
    // Only where node is alone in its parent (no element beside it: childElementCount would
    // count every child of a long list, for each of its items).
    if (!parent || node.previousElementSibling || node.nextElementSibling ||
      ROW_TAGS[parent.tagName] || parent.tagName === "TD" || parent.tagName === "LABEL") break;
    node = parent;
  }
  return "";
}

function besideText(node, direction) {
  // The text of the nearest sibling in one direction that shows any: a text node, a <label>,
  // or a leaf element that is no control ("" when the nearest is something else).
  for (let sibling = node[direction]; sibling; sibling = sibling[direction]) {
    if (sibling.nodeType === 3) {
      if (sibling.data.trim()) return clean(sibling.data, 40);
      continue;
    }
    if (sibling.nodeType !== 1 || SKIP.has(sibling.tagName)) continue;
    if ((sibling.hasAttributes() && sibling.getAttribute("aria-hidden") === "true") ||
      !renders(sibling)) continue;  // nothing a reader sees: look past it
    const label = sibling.tagName === "LABEL";
    if (label && sibling.control) return "";  // it speaks of its own control
    if (!label && (sibling.firstElementChild || isInteractive(sibling, roleOf(sibling)))) return "";
    const text = clean(label ? textAlternative(sibling) : sibling.textContent, 40);
    if (text) return text;  // else an empty leaf (an icon): look past it
  }
  return "";
}
