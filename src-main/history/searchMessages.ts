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
  | { type: 'flush'; id: number }
  | { type: 'memory'; id: number };

export interface ManifestReply {
  sessions: [sessionId: string, logSize: number][];
  loadError: string | null;
}

export interface IdleReply {
  indexedDocuments: number;
  documentCount: number;
}

/** The worker's own heap (after a collection when the process runs with --expose-gc), in bytes: bench and tests. */
export interface WorkerMemory {
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** What its indexes hold: documents, postings and the bytes of the compact postings. */
  documents: number;
  postings: number;
  postingBytes: number;
  mapPostings: number;
  /** The documents' texts, compressed. */
  textBytes: number;
  /** Postings kept in the worker's postings files instead of its memory (`filePostings.ts`). */
  postingFileBytes: number;
}

/** What the worker sends: answers, and news the host did not ask for. */
export type SearchReply =
  | { type: 'reply'; id: number; value: ManifestReply | string[] | RawHit[] | IdleReply | WorkerMemory | null }
  | { type: 'failed'; id: number; message: string }
  | { type: 'problem'; message: string }
  | { type: 'reset' };
