/**
 * The protocol benchmark's baselines (see protocol.bench.ts): a bare IndexedDB put+commit in the
 * page and an echo with a bare worker of the bench's own, each timed back to back and one after
 * an idle frame, and a bare put asked of that worker; all measured inside the app's own page.
 */
import type { Page } from 'playwright';
import { FRAME_WITH_LIMIT } from './limits';

/** The bench's own worker: echoes a message, or (`put: true`) does a bare put+commit first. */
export const ECHO_WORKER = `
const opened = new Promise((resolve, reject) => {
  indexedDB.deleteDatabase('bench-bare-worker');
  const request = indexedDB.open('bench-bare-worker', 1);
  request.onupgradeneeded = () => request.result.createObjectStore('entries', { keyPath: 'seq', autoIncrement: true });
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});
self.onmessage = async (event) => {
  if (!event.data.put) return self.postMessage(event.data);
  const tx = (await opened).transaction('entries', 'readwrite');
  tx.objectStore('entries').add({ id: String(event.data.id), entry: { type: 'custom', data: { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 2 } } } });
  tx.oncomplete = () => self.postMessage(event.data.id);
};`;

export interface Baselines {
  /** Back to back, both threads awake (for information). */
  put: number[];
  /** One put after an idle frame, as a learner's click starts one (baseline 1). */
  idlePut: number[];
  entryPut: number[];
  echo: number[];
  idleEcho: number[];
  /** A bare put+commit done by a worker at the page's request, timed in the page after an idle frame. */
  workerPut: number[];
}

/**
 * Baselines measured in the app's page: bare put+commits and a bare worker echo. Two puts,
 * alternating: of a bare record into a store without indexes, and of the record the journal store
 * writes into a store with its exact schema (keyPath and the three indexes of storeSchema.ts), as
 * the checked-commit benchmark (bench/browser/commitBench.ts) defines its baseline.
 */
export async function baselines(page: Page, rounds: number): Promise<Baselines> {
  return page.evaluate<Baselines>(`(async () => {
    const open = (name, upgrade) => new Promise((resolve, reject) => {
      indexedDB.deleteDatabase(name);
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => upgrade(request.result);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const plain = await open('bench-bare-page', (db) => db.createObjectStore('entries', { keyPath: 'seq', autoIncrement: true }));
    const indexed = await open('bench-bare-entry', (db) => {
      const entries = db.createObjectStore('entries', { keyPath: 'seq', autoIncrement: true });
      entries.createIndex('byId', ['sessionId', 'id'], { unique: true });
      entries.createIndex('byParent', ['sessionId', 'parentKey']);
      entries.createIndex('bySession', ['sessionId', 'seq']);
    });
    const sessionId = crypto.randomUUID();
    const frame = ${FRAME_WITH_LIMIT()};
    const recordAt = (i) => {
      const id = i.toString(16).padStart(8, '0');
      const parentKey = (i - 1).toString(16).padStart(8, '0');
      const entry = { type: 'custom', customType: 'seed-desk-state-v1', data: { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 2 } }, id, parentId: parentKey, timestamp: new Date().toISOString() };
      return { sessionId, id, parentKey, entry, deskHead: id, deskLink: { ok: true, snapshot: entry.data }, position: i, deskEntries: i + 1, hasAssistant: false };
    };
    const timePut = async (db, record) => {
      const start = performance.now();
      await new Promise((resolve, reject) => {
        const tx = db.transaction('entries', 'readwrite');
        tx.objectStore('entries').add(record);
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      return performance.now() - start;
    };
    const put = [];
    const entryPut = [];
    for (let i = 0; i < ${rounds}; i++) {
      if (i % 2 === 0) {
        put.push(await timePut(plain, recordAt(i)));
        entryPut.push(await timePut(indexed, recordAt(i)));
      } else {
        entryPut.push(await timePut(indexed, recordAt(i)));
        put.push(await timePut(plain, recordAt(i)));
      }
    }
    // As a click starts a write: one put after the page drew a frame and went idle. Chromium wakes
    // the page's thread and the database's sequence for it, which a put right after another skips.
    const idlePut = [];
    for (let i = 0; i < ${rounds}; i++) {
      await frame();
      idlePut.push(await timePut(plain, recordAt(${rounds} + i)));
    }
    plain.close();
    indexed.close();
    // Same origin (the page's CSP allows only 'self' workers): the bench serves this file itself.
    const worker = new Worker('/bench-echo-worker.js');
    const echoOnce = (i) => new Promise((resolve) => {
      worker.onmessage = resolve;
      worker.postMessage({ id: i, body: { type: 'line', text: '/seeds query bean' } });
    });
    await echoOnce(-1);
    // Hot: batches of 20 echoes back to back (both threads awake), for information.
    const echo = [];
    for (let i = 0; i < ${rounds}; i++) {
      const start = performance.now();
      for (let j = 0; j < 20; j++) await echoOnce(i);
      echo.push((performance.now() - start) / 20);
    }
    // As a request is sent: one echo after the page has drawn a frame and gone idle, as Enter
    // comes after typing. One such echo is below the page clock's 0.1 ms step, so each sample is
    // the mean of 10 echoes timed one by one (the clock's rounding averages out over them).
    const idleEcho = [];
    for (let i = 0; i < ${rounds}; i++) {
      let total = 0;
      for (let j = 0; j < 10; j++) {
        await frame();
        const start = performance.now();
        await echoOnce(i);
        total += performance.now() - start;
      }
      idleEcho.push(total / 10);
    }
    // The floor of any store a worker holds: the page asks, the worker does a bare put+commit, answers.
    const putOnce = (i) => new Promise((resolve) => {
      worker.onmessage = resolve;
      worker.postMessage({ id: i, put: true });
    });
    await putOnce(-1);
    const workerPut = [];
    for (let i = 0; i < ${rounds}; i++) {
      await frame();
      const start = performance.now();
      await putOnce(i);
      workerPut.push(performance.now() - start);
    }
    worker.terminate();
    return { put, idlePut, entryPut, echo, idleEcho, workerPut };
  })()`);
}
