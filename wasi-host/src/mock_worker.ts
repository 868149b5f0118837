// SPDX-License-Identifier: MIT
// The answering side of `agentctx serve-mock` in a worker thread. A large request keeps JSON
// parsing and `mock.respond` busy for seconds; on the server's thread that blocked the event
// loop, so Ctrl-C (a JS signal listener) waited for the answer. Here the server's thread only
// moves bytes, and terminate() stops the guest mid-call.
// Invariants:
//  - Requests are answered in the order they were sent (one guest, one queue), by
//    answerMockRequest (serve_mock.ts) with the clock of `--clock`, as on one thread.
//  - A request that throws (a guest trap) rejects with its message; the guest is never reused
//    after a trap, so later ones reject too.
//  - terminate() rejects the requests still pending and ends the thread at once.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { MockAnswer, MockClock, MockRequest } from './serve_mock.js';

type Reply = { id: number; answer: MockAnswer } | { id: number; error: string };
/** The thread's first message: its guest loaded, or why not (an AgentctxHostError's code). */
type Started = { ok: true } | { ok: false; code: string; message: string };

/** serve-mock's guest in a worker thread: answer() resolves with the HTTP answer. */
export class MockGuestWorker {
  #worker: Worker;
  #next = 0;
  #pending = new Map<number, { resolve: (a: MockAnswer) => void; reject: (e: Error) => void }>();
  #failure: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => {
      const call = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if ('answer' in reply) call?.resolve(reply.answer);
      else call?.reject(new Error(reply.error));
    });
    const fail = (e: Error): void => {
      this.#failure = e;
      for (const call of this.#pending.values()) call.reject(e);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the mock guest's thread ended (exit ${code})`)));
  }

  /** Starts the thread and waits until its guest is loaded (a load failure rejects as load() does). */
  static async start(clock: MockClock): Promise<MockGuestWorker> {
    const worker = new Worker(new URL(import.meta.url), { workerData: clock });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number): void => reject(new Error(`the mock guest's thread ended while starting (exit ${code})`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (started: Started) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (started.ok) {
          resolve();
          return;
        }
        void worker.terminate();
        // guest.js loads node:wasi, so it is imported only once the CLI has silenced its warning.
        void import('./guest.js').then(({ AgentctxHostError }) => reject(new AgentctxHostError(started.code, started.message)));
      });
    });
    return new MockGuestWorker(worker);
  }

  answer(request: MockRequest): Promise<MockAnswer> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, request });
    });
  }

  async terminate(): Promise<void> {
    await this.#worker.terminate();
  }
}

// The thread's side: load the guest, say so, then answer requests in order.
if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  // node:wasi's ExperimentalWarning would print from this thread (guest.js is imported only
  // after this line); the CLI prints its own lines.
  process.removeAllListeners('warning');
  const { WasiGuest } = await import('./guest.js');
  const { answerMockRequest, mockClockReader } = await import('./serve_mock.js');
  const now = mockClockReader(workerData as MockClock);
  try {
    const guest = await WasiGuest.load();
    port.on('message', ({ id, request }: { id: number; request: MockRequest }) => {
      try {
        port.postMessage({ id, answer: answerMockRequest(guest, now, request) } satisfies Reply);
      } catch (e) {
        port.postMessage({ id, error: e instanceof Error ? e.message : String(e) } satisfies Reply);
      }
    });
    port.postMessage({ ok: true } satisfies Started);
  } catch (e) {
    // No listener is left, so the thread ends; start() rejects with this.
    const code = typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : 'module_load_failed';
    port.postMessage({ ok: false, code, message: e instanceof Error ? e.message : String(e) } satisfies Started);
  }
}
