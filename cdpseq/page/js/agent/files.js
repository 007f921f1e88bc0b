// upload and clear: which <input type=file> a target means, clearing a field as a user does,
// and whether a file input took the files it was given.
//
// A file input is often visually hidden behind a styled button or a drop zone, so an upload
// does not need it visible or in view, only enabled: the browser sets the files directly
// (DOM.setFileInputFiles, which fires input and change as a real pick does). The input is
// found from the target itself, its <label>, or the one file input inside the target. The
// Python side sets the files between prepareUpload (which keeps the input in files.pending)
// and uploadOutcome (which checks the input holds exactly the files' names).

const files = { pending: null };

function fileInputOf(el) {
  // {el: the file input el means} or why el names none.
  const isFile = node => node && node.tagName === "INPUT" && node.type === "file";
  if (isFile(el)) return { el };
  const label = el.tagName === "LABEL" ? el : el.closest("label");
  if (label && isFile(label.control)) return { el: label.control };
  const inside = [...el.querySelectorAll("input[type=file]"),
    ...(el.shadowRoot ? el.shadowRoot.querySelectorAll("input[type=file]") : [])];
  if (inside.length === 1) return { el: inside[0] };
  if (inside.length > 1) {
    return { error: "NOT_EDITABLE", reason: `${describe(el)} holds ${inside.length} file inputs; ` +
      "target one of them" };
  }
  return { error: "NOT_EDITABLE", reason: `${describe(el)} is not an <input type=file>, the ` +
    "label of one, or an element with one inside" };
}

// Inputs a click opens no file chooser from (a button-like input's script may open one).
const NOT_CHOOSERS = ["file", "button", "submit", "reset", "image"];

function prepareUpload(el, args) {
  // {ok} once the file input is in files.pending; {chooser: why} when el names none but a
  // click on it may open one elsewhere (a button's script): the Python side clicks to see.
  const found = fileInputOf(el);
  if (found.error) {
    const field = el.tagName === "TEXTAREA" || el.tagName === "SELECT" ||
      (el.tagName === "INPUT" && !NOT_CHOOSERS.includes(el.type));
    if (!field) return { chooser: found.reason };
    return { error: "NOT_EDITABLE", reason: `${describe(el)} is ${describeField(el)}, not an ` +
      "<input type=file>: a form field opens no file chooser" };
  }
  const input = found.el;
  const disabled = disabledReason(input);
  if (disabled) return { error: "NOT_ACTIONABLE", reason: `the file input is ${disabled}`, retry: true };
  if (args.count > 1 && !input.multiple) {
    return { error: "INVALID_VALUE", reason: `${describe(input)} takes one file (it has no ` +
      `multiple attribute), not ${args.count}` };
  }
  touch(input);
  files.pending = input;
  return { ok: true };
}

function pendingUpload() {
  // The input prepareUpload found, as an object the browser can set files on.
  return files.pending;
}

function uploadOutcome(_, args) {
  // The files the input holds, if they are the ones given (by name, in order).
  const input = files.pending;
  files.pending = null;
  if (!input || !input.isConnected) {
    return { error: "STALE_REF", reason: "the file input was removed from the page" };
  }
  const held = [...input.files].map(f => ({ name: f.name, size: f.size, type: f.type }));
  if (held.length !== args.names.length || held.some((f, i) => f.name !== args.names[i])) {
    return { error: "INVALID_VALUE", reason: `the file input holds ` +
      `${JSON.stringify(held.map(f => f.name))} after setting ${JSON.stringify(args.names)} ` +
      "(the page changed or refused them)" };
  }
  return { files: held };
}

function clearField(el, args) {
  // Empty el as a user does: a text field or editor through fill's machinery with the empty
  // value (select all, then delete: the input events frameworks listen to); a file input by
  // forgetting its files, with the input and change a user's "cancel" in the picker fires.
  const found = fileInputOf(el);
  if (found.error) return fillField(el, { ...args, value: "" });
  const input = found.el;
  const disabled = disabledReason(input);
  if (disabled) return { error: "NOT_ACTIONABLE", reason: `the file input is ${disabled}`, retry: true };
  touch(input);
  if (input.files.length) {
    input.value = "";
    input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  if (input.files.length) {
    return { error: "INVALID_VALUE", reason: `the file input still holds ${input.files.length} file(s)` };
  }
  return { ok: true };
}

Object.assign(ops, { prepareUpload, pendingUpload, uploadOutcome, clear: clearField });
