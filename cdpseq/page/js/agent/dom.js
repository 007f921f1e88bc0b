// DOM traversal across documents, same-origin iframes and open shadow roots, and short
// descriptions of elements for error messages.

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

function skipSubtree(walker) {
  let next = walker.nextSibling();
  while (!next && walker.parentNode()) next = walker.nextSibling();
  return next;
}

function withinScope(scope, el) {
  // Whether el is scope or inside it, across shadow roots and same-origin frames.
  for (let node = el; node; ) {
    if (node === scope) return true;
    node = node.parentNode || node.host ||
      (node.nodeType === 9 && node.defaultView ? node.defaultView.frameElement : null) || null;
  }
  return false;
}

function describe(el) {
  if (!el || el.nodeType !== 1) return String(el);
  let s = el.tagName.toLowerCase();
  if (el.id) s += `#${el.id}`;
  const cls = typeof el.className === "string" ? el.className.trim() : "";
  if (cls) s += "." + cls.split(/\s+/).slice(0, 2).join(".");
  return s;
}

function composedContains(el, node) {
  // Whether node is el or inside it as the page renders it (the flat tree): across shadow roots,
  // and a slotted node inside the slot that shows it (a dialog component's footer buttons are in
  // its dialog box).
  while (node) {
    if (node === el) return true;
    node = node.assignedSlot || node.parentNode || node.host || null;
  }
  return false;
}

function flatKids(node) {
  // A node's children as the page renders them (the flat tree): a shadow host's are its shadow
  // root's, a slot's the nodes assigned to it (through slots inside slots), else its fallback
  // content; a <slot> outside a shadow tree is an ordinary element.
  if (node.nodeType !== 1) return node.childNodes;
  if (node.shadowRoot) return node.shadowRoot.childNodes;
  if (node.tagName === "SLOT" && node.getRootNode() instanceof ShadowRoot) {
    return node.assignedNodes({ flatten: true });
  }
  return node.childNodes;
}

function flatText(node, depth = 0) {
  // A node's text as the page renders it: textContent over the flat tree, without what a
  // <style> or <script> holds (a shadow root begins with its stylesheet).
  if (node.nodeType === 3) return node.data;
  if (depth > 30 || (node.nodeType === 1 && SKIP.has(node.tagName))) return "";
  if (node.nodeType === 1 && !node.shadowRoot && node.tagName !== "SLOT" &&
    !node.firstElementChild) return node.textContent;
  let text = "";
  for (const kid of flatKids(node)) text += flatText(kid, depth + 1);
  return text;
}
