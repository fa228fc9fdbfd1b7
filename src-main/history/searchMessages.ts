import type { RawHit } from './searchIndex';
import type { PackedTexts } from './searchTexts';

/** What the host asks the search worker (`searchWorker.ts`); requests with an `id` are answered with the same id. */
export type SearchRequest =
  | { type: 'open'; dataDir: string }
  | { type: 'loadManifest'; id: number }
  | { type: 'load'; id: number }
  | { type: 'index'; change: PackedTexts }
  | { type: 'remove'; sessionId: string }
  | { type: 'query'; id: number; text: string; limit: number }
  | { type: 'idle'; id: number }
  | { type: 'flush'; id: number };

export interface ManifestReply {
  sessions: [sessionId: string, logSize: number][];
  loadError: string | null;
}

export interface IdleReply {
  indexedDocuments: number;
  documentCount: number;
}

/** What the worker sends: answers, and news the host did not ask for. */
export type SearchReply =
  | { type: 'reply'; id: number; value: ManifestReply | string[] | RawHit[] | IdleReply | null }
  | { type: 'failed'; id: number; message: string }
  | { type: 'problem'; message: string }
  | { type: 'reset' };
