import { Readable, Writable } from 'node:stream';

/**
 * Web streams over a byte pipe, as the SDK's `ndJsonStream` wants them. Node types `toWeb`'s
 * result by its element as `any`; the pipes given here (a process's stdio, in-memory pipes)
 * carry bytes, which is what the declared `Uint8Array` says.
 */
export function webByteStreams(input: Readable, output: Writable): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> } {
  return { input: Readable.toWeb(input) as ReadableStream<Uint8Array>, output: Writable.toWeb(output) as WritableStream<Uint8Array> };
}
