// SPDX-License-Identifier: MIT
// Workspace panel: a file tree over the in-memory FileSystem the session reads (createMemory
// FileSystem from the package) and an editor to add, edit and delete files. Edits go straight
// to the FileSystem — exactly what the engine will stat and read at its next step; AGENTS.md
// edits are remembered so the AGENTS.md panel can say whether the model has seen them.
// The model changes the same FileSystem (write_file, edit_file, apply_patch): after every tool
// output the tree is redrawn, the open file is reloaded unless it has unsaved changes, and
// AGENTS files the model changed count as edits too.
import { $, el } from './util.js';

let app;
let selected = null;
let loadedText = ''; // the open file's text as last loaded or saved (to spot unsaved changes)
const agentsTexts = new Map(); // AGENTS file -> text last seen, to notice changes by the model
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export const isAgentsFile = (path) => /(^|\/)AGENTS(\.override)?\.md$/.test(path);

export function readText(fs, path) {
  const r = fs.read(path, 1 << 20);
  return r.ok ? decoder.decode(r.data) : null;
}

/** Nested {name, path, children} from the sorted file list. */
function buildTree(paths) {
  const root = { children: new Map() };
  for (const path of paths) {
    let node = root;
    const parts = path.slice(1).split('/');
    parts.forEach((part, i) => {
      if (!node.children.has(part)) {
        node.children.set(part, { name: part, path: `/${parts.slice(0, i + 1).join('/')}`, children: new Map(), file: i === parts.length - 1 });
      }
      node = node.children.get(part);
    });
  }
  return root;
}

function renderNode(node) {
  const items = [];
  for (const child of [...node.children.values()].sort((a, b) => (a.file - b.file) || a.name.localeCompare(b.name))) {
    if (child.file) {
      const current = child.path === selected;
      items.push(el('li', {},
        el('button', {
          type: 'button', class: `file${isAgentsFile(child.path) ? ' agents' : ''}`, dataset: { path: child.path },
          'aria-current': current ? 'true' : undefined, onclick: () => open(child.path),
        }, child.name)));
    } else {
      items.push(el('li', {},
        el('span', { class: 'dir' }, `${child.name}/`),
        el('ul', {}, renderNode(child))));
    }
  }
  return items;
}

function render() {
  const paths = app.fs.paths();
  $('file-tree').replaceChildren(...renderNode(buildTree(paths)));
  const dirs = new Set();
  for (const p of paths) {
    for (let d = p.slice(0, p.lastIndexOf('/')); d !== ''; d = d.slice(0, d.lastIndexOf('/'))) dirs.add(d);
  }
  $('dir-list').replaceChildren(...[...dirs].sort().map((d) => el('option', { value: d })));
}

/** Remembers every AGENTS file's text; returns the files whose text changed since last time. */
function agentsChanges() {
  const changed = [];
  const now = new Map(app.fs.paths().filter(isAgentsFile).map((p) => [p, readText(app.fs, p)]));
  for (const [path, text] of now) {
    if (agentsTexts.has(path) && agentsTexts.get(path) !== text) changed.push(path);
  }
  for (const path of agentsTexts.keys()) if (!now.has(path)) changed.push(path);
  agentsTexts.clear();
  for (const [path, text] of now) agentsTexts.set(path, text);
  return changed;
}

/** After the model may have changed files: redraw, reload the open file, note AGENTS edits. */
function refreshFromModel() {
  for (const path of agentsChanges()) noteEdit(path);
  if (selected !== null && $('file-content').value === loadedText) {
    const text = readText(app.fs, selected);
    if (text === null) {
      $('file-note').textContent = `${selected} was deleted by the model.`;
    } else if (text !== loadedText) {
      $('file-content').value = text;
      loadedText = text;
      $('file-note').textContent = `${selected} was changed by the model.`;
    }
  }
  render();
}

/**
 * Opens `path` in the editor. `reveal`: scroll the tree box (never the page) just enough to show
 * the file; the first file opened does not, so the tree starts at its root.
 */
function open(path, reveal = true) {
  selected = path;
  $('file-path').value = path;
  loadedText = readText(app.fs, path) ?? '';
  $('file-content').value = loadedText;
  $('file-note').textContent = '';
  render();
  const tree = $('file-tree');
  const current = tree.querySelector('[aria-current="true"]');
  if (!reveal || !current) return;
  const top = current.offsetTop;
  const bottom = top + current.offsetHeight;
  if (top < tree.scrollTop) tree.scrollTop = top;
  else if (bottom > tree.scrollTop + tree.clientHeight) tree.scrollTop = bottom - tree.clientHeight;
}

let editCounter = 0;
function noteEdit(path) {
  // `seq` orders edits made within the same millisecond (a save, then the model's write).
  if (isAgentsFile(path)) app.edits.set(path, { time: Date.now(), seq: ++editCounter, request: app.requests.length });
}

function save() {
  const path = $('file-path').value.trim();
  const r = app.fs.write(path, encoder.encode($('file-content').value), true);
  if (!r.ok) {
    $('file-note').textContent = `Not saved: ${r.code}${r.message ? ` (${r.message})` : ''}`;
    return;
  }
  noteEdit(path);
  agentsChanges(); // this edit is already noted
  selected = path;
  loadedText = $('file-content').value;
  $('file-note').textContent = `Saved ${path}. The engine sees it at its next step${isAgentsFile(path) ? ' (if the AGENTS.md refresh notices it — see the AGENTS.md view)' : ''}.`;
  render();
  app.emit('files', path);
}

function remove() {
  const path = $('file-path').value.trim();
  if (!app.fs.remove(path)) {
    $('file-note').textContent = `Nothing to delete at ${path}.`;
    return;
  }
  noteEdit(path);
  agentsChanges();
  selected = null;
  loadedText = '';
  $('file-path').value = '';
  $('file-content').value = '';
  $('file-note').textContent = `Deleted ${path}.`;
  render();
  app.emit('files', path);
}

export function init(appState) {
  app = appState;
  $('file-form').addEventListener('submit', (e) => {
    e.preventDefault();
    save();
  });
  $('file-new').addEventListener('click', () => {
    selected = null;
    const cwd = app.config?.environments[0].cwd ?? '/repo';
    $('file-path').value = `${cwd}/`;
    $('file-content').value = '';
    $('file-path').focus();
    render();
  });
  $('file-delete').addEventListener('click', remove);
  app.on('tool-output', refreshFromModel);
  app.on('turn', refreshFromModel);
  agentsChanges();
  render();
  open('/repo/services/api/AGENTS.md', false);
}
