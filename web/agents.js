// SPDX-License-Identifier: MIT
// AGENTS.md view: the manager's state from `inspect {"format":"agents"}` (refresh mode, last
// cache outcome, generation, loaded sources, cache key, probe set) and an answer to
// "why is my edit (not) visible?" for one AGENTS file. The answer combines that state with the
// workspace (does the file exist, is its text in what was loaded, is it on the root → cwd path,
// is it shadowed by an override); docs/agents-md.md and docs/agents-md-refresh.md have the rules.
import { HOME_DIR } from './demo.js';
import { isAgentsFile, readText } from './workspace.js';
import { $, el, facts } from './util.js';

let app;
let inspect = null;
let answeredEdit = 0; // the `seq` of the newest edit the "why" answer has switched to

const CACHE_WORDS = {
  none: 'none yet',
  hit: 'hit — the cache key matched, nothing was reloaded',
  miss: 'miss — the cache key changed (or first load), so everything was reloaded',
  probe_changed: 'probe changed — a watched path changed, so everything was reloaded',
  failed: 'failed — the last load failed; the next step retries',
};

const dirname = (p) => p.slice(0, p.lastIndexOf('/')) || '/';
const exists = (path) => app.fs.stat(path).ok;

/** The nearest ancestor of cwd (inclusive) holding a root marker, or null. */
function projectRoot(cwd, markers) {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (markers.some((m) => exists(`${dir === '/' ? '' : dir}/${m}`))) return dir;
    if (dir === '/') return null;
  }
}

function pendingText(refresh, what) {
  if (refresh === 'probe') {
    return `It will be: refresh is "probe", so before the next step the engine re-stats the ${inspect.probes.length} watched paths, ` +
      `notices ${what}, reloads (generation ${inspect.generation + 1}) and appends a replacement notice — the cached prefix stays intact.`;
  }
  return 'Refresh is "selection": the cache is only compared with its key (environments and cwd, trust, agents_md config, fs_epoch) ' +
    `and a hit makes no FileSystem call, so ${what} stays invisible until the key changes. Switch to probe, change cwd, or bump fs_epoch.`;
}

/** [verdict, explanation] for one AGENTS file. */
function why(path) {
  const config = app.config;
  const cwd = config.environments[0].cwd;
  const refresh = config.agents_md?.refresh ?? 'selection';
  const content = readText(app.fs, path);
  const loaded = inspect.sources.some((s) => s.path === path);
  const seen = content !== null && content.trim() !== '' && (inspect.text ?? '').includes(content.trim());
  const global = path.startsWith(`${HOME_DIR}/`);
  const edit = app.edits.get(path);

  if (content === null) {
    if (loaded) return ['not visible yet', `The file is gone, but the model still has its old text. ${pendingText(refresh, 'the deletion')} (The notice then says the instructions no longer apply.)`];
    return ['not loaded', 'The file does not exist.'];
  }
  if (loaded && seen) {
    const since = edit ? ' including your edit' : '';
    return ['visible', `The model sees this file${since}: it is one of the ${inspect.sources.length} loaded sources (generation ${inspect.loaded_generation}; last refresh: ${CACHE_WORDS[inspect.cache] ?? inspect.cache}).`];
  }
  if (loaded) return ['not visible yet', `The file is loaded, but not with its current text. ${pendingText(refresh, 'the edit')}`];
  if (global) {
    if (path.endsWith('/AGENTS.md') && (readText(app.fs, `${HOME_DIR}/AGENTS.override.md`) ?? '').trim() !== '') {
      return ['not loaded', 'A non-blank global AGENTS.override.md wins over the global AGENTS.md.'];
    }
    return ['not visible yet', `The global file is read on the session's first load and re-read only in probe mode. ${pendingText(refresh, 'the change')}`];
  }
  if (config.trust === 'untrusted') return ['not loaded', 'Trust is "untrusted": project AGENTS.md files are skipped (the global file is kept).'];
  const dir = dirname(path);
  if (cwd !== dir && !cwd.startsWith(`${dir}/`)) {
    return ['not loaded', `Only directories from the project root down to the cwd (${cwd}) are searched, and ${dir} is not one of them. Set cwd to ${dir} (or below) to load it.`];
  }
  const root = projectRoot(cwd, config.agents_md?.root_markers ?? ['.git']);
  if (root !== null && root !== dir && !dir.startsWith(`${root === '/' ? '' : root}/`)) {
    return ['not loaded', `${dir} is above the project root ${root} (the nearest directory with a root marker such as .git).`];
  }
  if (root === null && dir !== cwd) return ['not loaded', 'No project root marker was found above the cwd, so only the cwd itself is searched.'];
  if (path.endsWith('/AGENTS.md') && exists(`${dir}/AGENTS.override.md`)) {
    return ['not loaded', 'AGENTS.override.md in the same directory wins (one file per directory — even a blank override hides AGENTS.md).'];
  }
  return ['not visible yet', `The file is new to the engine. ${pendingText(refresh, 'the new file')}`];
}

function renderWhy() {
  const select = $('agents-file');
  const files = app.fs.paths().filter(isAgentsFile);
  const previous = select.value;
  const [lastEdited, last] = [...app.edits.entries()].sort((a, b) => b[1].seq - a[1].seq)[0] ?? [];
  // A new edit (by the user or the model) moves the answer to that file; otherwise the file the
  // user picked stays.
  let chosen = files.includes(previous) ? previous : (files.find((f) => f.endsWith('/api/AGENTS.md')) ?? files[0]);
  if (last !== undefined && last.seq > answeredEdit && files.includes(lastEdited)) {
    chosen = lastEdited;
    answeredEdit = last.seq;
  }
  select.replaceChildren(...files.map((f) => el('option', { value: f }, f)));
  if (chosen) select.value = chosen;
  const box = $('agents-why');
  if (!chosen || inspect === null) {
    box.replaceChildren();
    return;
  }
  const [verdict, text] = why(chosen);
  box.dataset.verdict = verdict;
  box.replaceChildren(el('strong', { class: `verdict ${verdict.replace(/ /g, '-')}` }, verdict), ' ', text);
}

function render() {
  try {
    inspect = app.session.call('inspect', { format: 'agents' });
  } catch {
    inspect = null;
    return;
  }
  const key = inspect.key;
  const state = $('agents-state');
  state.dataset.generation = String(inspect.generation);
  state.dataset.cache = inspect.cache;
  state.replaceChildren(facts([
    ['refresh mode', `${app.config.agents_md?.refresh ?? 'selection'}${inspect.refresh !== (app.config.agents_md?.refresh ?? 'selection') ? ` (last refresh ran as ${inspect.refresh})` : ''}`],
    ['last refresh', CACHE_WORDS[inspect.cache] ?? inspect.cache],
    ['generation', `${inspect.generation} (loaded: ${inspect.loaded_generation})`],
    ['sources', inspect.sources.length === 0 ? 'none'
      : el('ol', {}, inspect.sources.map((s) => el('li', {}, el('code', {}, s.path), s.global ? ' (global)' : ` (${s.environment_id}${s.kind === 'local' ? ', local overlay' : s.kind === 'import' ? `, imported from ${s.imported_from}` : ''})`)))],
    ['cache key', key === null ? 'none (cleared)'
      : `${key.environments.map((e) => `${e.id} ${e.cwd} on ${e.fs}${e.sandboxed ? ' (sandboxed)' : ''}, fs_epoch ${e.fs_epoch}`).join('; ')}; ${key.trust}`],
    ...(inspect.warnings.length ? [['warnings', inspect.warnings.map((w) => `${w.code}: ${w.message}`).join('\n')]] : []),
    ...(inspect.error ? [['error', `${inspect.error.code}: ${inspect.error.message}`]] : []),
  ]));
  $('agents-fragment').textContent = inspect.fragment ?? '(no AGENTS.md text)';
  $('agents-probes').replaceChildren(el('table', {},
    el('thead', {}, el('tr', {}, ['path', 'role', 'state', 'size', 'mtime'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, inspect.probes.map((p) => el('tr', {}, el('td', {}, el('code', {}, p.path)), el('td', {}, p.role),
      el('td', {}, p.state + (p.error ? ` (${p.error})` : '')), el('td', {}, p.size ?? ''), el('td', {}, p.mtime_ms ?? ''))))));
  renderWhy();
}

export function init(appState) {
  app = appState;
  $('agents-file').addEventListener('change', renderWhy);
  $('bump-epoch').addEventListener('click', () => {
    const environments = app.config.environments.map((e, i) => (i === 0 ? { ...e, fs_epoch: (e.fs_epoch ?? 0) + 1 } : e));
    app.update({ environments });
  });
  for (const topic of ['turn', 'files', 'config', 'reset']) app.on(topic, render);
}
