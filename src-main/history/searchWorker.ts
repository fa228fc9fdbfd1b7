// The search worker's entry (its own chunk in out/main): the search index lives here, so building,
// loading, querying and saving it never runs on the host's event loop. Plain Node only: no Electron.
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import type { SearchReply, SearchRequest } from './searchMessages';
import { SearchIndex } from './searchIndex';
import { unpackTexts } from './searchTexts';
import { fullCollection } from '../sessions/quietCompaction';

function collectTwice(): void {
  const collect = fullCollection();
  collect?.();
  collect?.();
}

const port = parentPort;
if (!port) throw new Error('searchWorker.ts runs as a worker thread (searchProxy.ts starts it).');

let index: SearchIndex | null = null;
const send = (message: SearchReply) => port.postMessage(message);

async function answer(request: SearchRequest & { id: number }, index: SearchIndex): Promise<void> {
  try {
    switch (request.type) {
      case 'loadManifest': {
        await index.loadManifest();
        const sessions = index.indexedSessions().map((sessionId): [string, number] => [sessionId, index.indexedLogSize(sessionId) ?? -1]);
        return send({ type: 'reply', id: request.id, value: { sessions, loadError: index.loadError } });
      }
      case 'load':
        await index.load();
        // What the load parsed is garbage V8 would keep committed for many seconds (issue 23, host memory).
        // A second collection gives back the pages the first left partly used: old space committed
        // 26.5–28 → 16 MB for 3 × 50,000 entries, ~24 ms more on this thread (PERFORMANCE.md, round 8).
        collectTwice();
        return send({ type: 'reply', id: request.id, value: index.droppedIds });
      case 'query':
        return send({ type: 'reply', id: request.id, value: await index.query(request.text, request.limit) });
      case 'idle':
        await index.idle();
        return send({ type: 'reply', id: request.id, value: { indexedDocuments: index.indexedDocuments, documentCount: index.documentCount } });
      case 'flush':
        index.flush();
        return send({ type: 'reply', id: request.id, value: null });
      case 'memory': {
        (globalThis as { gc?: () => void }).gc?.();
        const heap = getHeapStatistics();
        const held = index.memory();
        const value = { heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size, external: heap.external_memory, ...held };
        return send({ type: 'reply', id: request.id, value });
      }
    }
  } catch (error) {
    send({ type: 'failed', id: request.id, message: (error as Error)?.message ?? String(error) });
  }
}

port.on('message', (request: SearchRequest) => {
  if (request.type === 'open') {
    index = new SearchIndex(request.dataDir, undefined, undefined, (message) => send({ type: 'problem', message }));
    index.onReset = () => send({ type: 'reset' });
    return;
  }
  if (!index) throw new Error('The search worker got a request before "open".');
  if (request.type === 'index') index.indexTexts(unpackTexts(request.change));
  else if (request.type === 'remove') index.removeSession(request.sessionId);
  else void answer(request, index);
});
