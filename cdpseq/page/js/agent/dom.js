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

function describe(el) {
  if (!el || el.nodeType !== 1) return String(el);
  let s = el.tagName.toLowerCase();
  if (el.id) s += `#${el.id}`;
  const cls = typeof el.className === "string" ? el.className.trim() : "";
  if (cls) s += "." + cls.split(/\s+/).slice(0, 2).join(".");
  return s;
}

function composedContains(el, node) {
  while (node) {
    if (node === el) return true;
    node = node.parentNode || node.host || null;
  }
  return false;
}
