import { describe, expect, it } from 'vitest';
import { decodeContentBlock, decodeContentBlocks, decodeLocation, decodeLocations, decodeToolContent, decodeToolContents, encodePrompt } from './content';
import { upgradeEvent } from './legacyEvents';

const BLOCKS: Record<string, unknown>[] = [
  { type: 'text', text: 'hello', annotations: { audience: ['user'] }, _meta: { k: 1 } },
  { type: 'image', mimeType: 'image/png', data: 'iVBOR', uri: 'file:///w/a.png' },
  { type: 'audio', mimeType: 'audio/wav', data: 'UklGR' },
  { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts', title: 'A', description: 'the file', mimeType: 'text/x-typescript', size: 12 },
  { type: 'resource', resource: { uri: 'file:///w/b.txt', mimeType: 'text/plain', text: 'bee' } },
  { type: 'resource', resource: { uri: 'file:///w/c.bin', blob: 'AAEC' } },
];

const TOOL_CONTENT: Record<string, unknown>[] = [
  { type: 'content', content: { type: 'text', text: 'output' } },
  { type: 'diff', path: '/w/a.ts', oldText: 'one', newText: 'two' },
  { type: 'diff', path: '/w/new.ts', newText: 'fresh' },
  { type: 'diff', path: '/w/gone.ts', oldText: 'bye', newText: '', deleted: true },
  {
    type: 'diff',
    changes: [
      { operation: 'modify', path: '/w/a.txt', fileType: 'text', mimeType: 'text/plain' },
      { operation: 'move', oldPath: '/w/b.txt', path: '/w/c.txt' },
    ],
    patch: { format: 'git_patch', text: 'diff --git a/w/a.txt b/w/a.txt\n' },
  },
  { type: 'terminal', terminalId: 'term-1' },
];

describe('content decoders (wire → the app’s types)', () => {
  it('reads every known content block with the wire’s field names', () => {
    expect(BLOCKS.map(decodeContentBlock)).toEqual(BLOCKS);
  });

  it('keeps a future or `_` block type as sent, shown as unknown', () => {
    const future = { type: 'x_hologram', data: 'future content' };
    const extension = { type: '_zed_fold', ranges: [1, 2] };
    expect(decodeContentBlock(future)).toEqual({ type: 'unknown', typeName: 'x_hologram', raw: future });
    expect(decodeContentBlock(extension)).toEqual({ type: 'unknown', typeName: '_zed_fold', raw: extension });
    expect(decodeContentBlock({ text: 'no type' })).toEqual({ type: 'unknown', typeName: '(no type)', raw: { text: 'no type' } });
  });

  it('reads every known tool content item; v2 diffs keep their changes and patch text', () => {
    expect(decodeToolContents(TOOL_CONTENT)).toEqual([
      TOOL_CONTENT[0],
      TOOL_CONTENT[1],
      { type: 'diff', path: '/w/new.ts', oldText: null, newText: 'fresh' },
      TOOL_CONTENT[3],
      TOOL_CONTENT[4],
      TOOL_CONTENT[5],
    ]);
    // The RFD's draft named the patch text `diff`.
    expect(decodeToolContent({ type: 'diff', changes: [], patch: { format: 'git_patch', diff: '+x' } })).toEqual({
      type: 'diff',
      changes: [],
      patch: { format: 'git_patch', text: '+x' },
    });
  });

  it('keeps an unknown tool content type, and a file change of an unknown operation, as sent', () => {
    const future = { type: '_x_chart', series: [1, 2, 3] };
    expect(decodeToolContent(future)).toEqual({ type: 'unknown', typeName: '_x_chart', raw: future });
    const touch = { operation: '_x_touch', path: '/w/f.txt', mtime: 5 };
    expect(decodeToolContent({ type: 'diff', changes: [touch] })).toEqual({
      type: 'diff',
      changes: [{ operation: '_x_touch', path: '/w/f.txt', raw: touch }],
      patch: null,
    });
    expect(decodeToolContent({ type: 'content', content: { type: '_x_svg', svg: '<svg/>' } })).toEqual({
      type: 'content',
      content: { type: 'unknown', typeName: '_x_svg', raw: { type: '_x_svg', svg: '<svg/>' } },
    });
  });

  it('reads locations as a path and maybe a line', () => {
    expect(decodeLocations([{ path: '/w/a.ts', line: 3 }, { path: '/w/b.ts' }, { path: '/w/c.ts', line: null }])).toEqual([
      { path: '/w/a.ts', line: 3 },
      { path: '/w/b.ts' },
      { path: '/w/c.ts' },
    ]);
  });

  it('is idempotent: decoding what it decoded gives the same value', () => {
    const odd = [{ type: 'x_hologram', data: 1 }, { type: 'unknown' }, 'text', null, { type: 'text' }];
    for (const value of [...BLOCKS, ...odd]) expect(decodeContentBlock(decodeContentBlock(value))).toEqual(decodeContentBlock(value));
    const oddTools = [{ type: 'diff', changes: [{ operation: '_x', path: 'p' }, 'bad'] }, { type: '_x' }, { type: 'content' }, 7];
    for (const value of [...TOOL_CONTENT, ...oddTools]) expect(decodeToolContent(decodeToolContent(value))).toEqual(decodeToolContent(value));
    const location = { path: '/w/a.ts', line: 9 };
    expect(decodeLocation(decodeLocation(location))).toEqual(decodeLocation(location));
  });

  it('never throws on bad input, and loses nothing it cannot read', () => {
    const bad: unknown[] = [null, undefined, 42, 'text', [], { type: 7 }, { type: 'text', text: 5 }, { type: 'resource', resource: 'x' }, { type: 'image' }];
    for (const value of bad) {
      expect(() => decodeContentBlock(value)).not.toThrow();
      expect(() => decodeToolContent(value)).not.toThrow();
      expect(() => decodeLocation(value)).not.toThrow();
    }
    expect(decodeContentBlock(42)).toEqual({ type: 'unknown', typeName: '(no type)', raw: { value: 42 } });
    expect(decodeContentBlocks([{ type: 'text', text: 'a' }, 'b'])).toEqual([
      { type: 'text', text: 'a' },
      { type: 'unknown', typeName: '(no type)', raw: { value: 'b' } },
    ]);
    expect(decodeContentBlocks('not a list')).toEqual([]);
    expect(decodeToolContent({ type: 'diff', changes: 'bad', path: 3 })).toEqual({ type: 'diff', path: '', oldText: null, newText: '' });
  });
});

describe('prompts to the wire', () => {
  it('sends known blocks as typed and an unknown one as it came', () => {
    const raw = { type: '_x_sketch', strokes: [] };
    expect(encodePrompt([{ type: 'text', text: 'hi' }, decodeContentBlock(raw), decodeContentBlock(BLOCKS[4])])).toEqual([
      { type: 'text', text: 'hi' },
      raw,
      BLOCKS[4],
    ]);
  });
});

describe('logs written before content was typed', () => {
  const base = { sessionId: 's', seq: 1, ts: 0 };
  it('have their raw blocks, tool content and locations decoded when read; typed events pass unchanged', () => {
    const future = { type: 'x_hologram', data: 'f' };
    const events = [
      { ...base, kind: 'turn.started', turnId: 't', prompt: [{ type: 'text', text: 'hi' }, future] },
      { ...base, kind: 'prompt.queued', queueId: 'q', prompt: [future] },
      { ...base, kind: 'message.chunk', role: 'agent', content: future },
      { ...base, kind: 'message.upserted', role: 'agent', messageId: 'm', content: [future] },
      { ...base, kind: 'tool.updated', toolCallId: 'c', fields: { content: [{ type: '_x' }], locations: [{ path: '/w', line: 'x' }] } },
      { ...base, kind: 'tool.contentAppended', toolCallId: 'c', content: { type: 'diff', path: '/w/a', newText: 'n' } },
      { ...base, kind: 'permission.requested', requestId: 'r', toolCallId: 'c', options: [], tool: { content: [future], title: 'T' } },
    ];
    const unknown = { type: 'unknown', typeName: 'x_hologram', raw: future };
    const upgraded = events.map(upgradeEvent);
    expect(upgraded).toEqual([
      { ...events[0], prompt: [{ type: 'text', text: 'hi' }, unknown] },
      { ...events[1], prompt: [unknown] },
      { ...events[2], content: unknown },
      { ...events[3], content: [unknown] },
      { ...events[4], fields: { content: [{ type: 'unknown', typeName: '_x', raw: { type: '_x' } }], locations: [{ path: '/w' }] } },
      { ...events[5], content: { type: 'diff', path: '/w/a', oldText: null, newText: 'n' } },
      { ...events[6], tool: { content: [{ type: 'unknown', typeName: 'x_hologram', raw: future }], title: 'T' } },
    ]);
    expect(upgraded.map((event) => upgradeEvent(event!))).toEqual(upgraded);
  });

  it('a raw v1 update is decoded to typed content', () => {
    const update = {
      sessionUpdate: 'tool_call',
      toolCallId: 'c',
      title: 'Edit',
      content: [{ type: 'diff', path: '/w/a', oldText: 'a', newText: 'b' }],
      locations: [{ path: '/w/a' }],
    };
    expect(upgradeEvent({ ...base, kind: 'acp.update', update })).toEqual({
      ...base,
      kind: 'tool.updated',
      toolCallId: 'c',
      fields: { title: 'Edit', content: [{ type: 'diff', path: '/w/a', oldText: 'a', newText: 'b' }], locations: [{ path: '/w/a' }] },
    });
  });
});
