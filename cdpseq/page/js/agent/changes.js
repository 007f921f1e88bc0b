// How one element's entry changed during an act, as the delta (delta.js) reports it: the fields
// that differ between its entry before the first step and after the page settled, and, for a
// table or list whose order changed, the items the act moved.

function fieldsChanged(before, after) {
  // [field, from, to, more?] for what differs between two entries of one element.
  const out = [];
  if (before.role !== after.role) out.push(["role", before.role, after.role]);
  const textual = after.kind === "text" || after.kind === "live";
  const was = before.states || {}, now = after.states || {};
  // A select-only combobox named by the value it shows (jQuery UI's selectmenu): the value
  // change says it.
  const named = before.name === was.value && after.name === now.value;
  if (before.name !== after.name && !textual && !named) out.push(["name", before.name, after.name]);
  if (before.text !== after.text) out.push(["text", before.text, after.text]);
  const worded = was.valuetext !== now.valuetext;  // the value as words says it: not as a number
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (key === "focused" || key === "inputType" || (key === "valuenow" && worded)) continue;
    // The active item of a popup that is closed now is no news (where its list would start).
    if (key === "active" && now.expanded === false) continue;
    const from = key in was ? was[key] : null, to = key in now ? now[key] : null;
    if (from !== to && !(from === null && to === false) && !(from === false && to === null)) {
      out.push([key, from, to]);
    }
  }
  // A class change beside a state's styles that state (Bootstrap's `active` with
  // aria-selected, `collapsed` with aria-expanded): the state says it already.
  if (!out.some(([field]) => !PLAIN_FIELDS.has(field))) {
    for (const change of [classChange("className", before.classes, after.classes),
      classChange("wrapperClassName", before.wrapper, after.wrapper)]) if (change) out.push(change);
  }
  if ((before.sort || "") !== (after.sort || "")) {
    out.push(["sort", before.sort || "none", after.sort || "none"]);
  }
  if (before.order && after.order && before.order.join("\n") !== after.order.join("\n")) {
    out.push(["order", before.order, after.order]);  // kept only when no row changed (below)
  }
  return out;
}

function movedItems(container) {
  // The rows or items of a container that this act took out and put back (a card a drag
  // library moved, rows a sort moved) and that are controls themselves: what the reorder
  // moved, in order. A row that is no control is told by the order alone.
  const found = [];
  for (const row of container.querySelectorAll(ROW_SELECTOR)) {
    if (!model.placed.has(row) || rowOf(row, container) !== row) continue;
    const entry = model.entries.get(row);
    if (entry && entry.kind === "control") found.push([row, entry]);
  }
  return found;
}
