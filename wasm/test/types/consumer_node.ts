// SPDX-License-Identifier: MIT
// Type-level test of the public .d.ts as a Node consumer sees it (export condition "node").
// Compiled with tsc --strict --noEmit by wasm/test/types.test.mjs; never run.
import {
  AgentctxError, createEngine, createMemoryFileSystem, createNodeFileSystem,
  type AgentctxEngine, type ErrorCode, type FileSystem, type SessionHandle,
} from 'agentctx';

export async function main(): Promise<void> {
  const engine: AgentctxEngine = await createEngine({ wasmUrl: new URL('./agentctx.wasm', import.meta.url) });
  const version: string = engine.version();
  const viaCall: string = engine.call('version').version;
  // config.echo is not a typed method (a diagnostic): its result is typed by the caller.
  const echo = engine.call<{ version: string }>('config.echo', { session_id: 's' });
  const echoed: string = echo.version;
  const open: number = engine.stats().open_handles;
  const custom = engine.call<{ n: number }>('custom.method', { x: 1 });
  const n: number = custom.n;
  const raw: string = engine.callRaw('config.echo', '{}');
  // @ts-expect-error mock.respond takes an object with endpoint and body
  engine.call('mock.respond', 42);
  // @ts-expect-error unknown option
  await createEngine({ wasmPath: 'x' });

  const fs: FileSystem = createNodeFileSystem('/tmp');
  const mem: FileSystem = createMemoryFileSystem({ '/a.txt': 'a', '/b.bin': new Uint8Array(1) });
  {
    using session: SessionHandle = engine.openSession({ workspace: mem, host: fs });
    const handle: number = session.handle;
    session.call<unknown>('anything', { a: 1 });
    // @ts-expect-error a misspelled method name is not a method (only a typed call<T> names others)
    session.call('sesion.start', { config: { session_id: 's', model: { slug: 'mock-1' }, environments: [] } });
    // @ts-expect-error the same on the engine
    engine.call('verison');
    // @ts-expect-error a session method is not an engine method
    engine.call('submit', { text: 'hi' });
    void handle;
  }
  try {
    engine.callJson('config.echo', '{bad');
  } catch (e) {
    if (e instanceof AgentctxError) {
      const code: ErrorCode = e.code;
      // @ts-expect-error codes are snake_case literals
      if (e.code === 'InvalidJson') return;
      void code;
      void e.details;
    }
  }
  engine.dispose();
  void [version, viaCall, echoed, open, n, raw];
}
