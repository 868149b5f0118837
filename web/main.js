// SPDX-License-Identifier: MIT
// Playground (vertical slice): loads the agentctx package through the import map, shows the
// engine version and the result of one config.echo call. No network beyond this origin.
import { AgentctxError, createEngine } from 'agentctx';

const $ = (id) => document.getElementById(id);

// Deliberately unsorted keys: config.echo answers the canonical (sorted) form.
const sampleConfig = { session_id: 'playground', model: 'mock', cwd: '/workspace', approval_policy: null };

async function main() {
  const engine = await createEngine();
  $('engine-version').textContent = engine.version();
  $('echo-input').textContent = JSON.stringify(sampleConfig);
  $('echo-result').textContent = JSON.stringify(engine.call('config.echo', sampleConfig));
}

main().then(
  () => { document.body.dataset.state = 'ready'; },
  (error) => {
    document.body.dataset.state = 'error';
    $('status').textContent = error instanceof AgentctxError ? `${error.code}: ${error.message}` : String(error);
    console.error(error);
  },
);
