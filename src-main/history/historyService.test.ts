import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { SessionState } from '../../src-shared/session/state';
import type { AppCore } from '../core/appCore';
import { describeProtocols, makeCore, reopenCore } from '../testing/coreHarness';

const cores: AppCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.dispose()));
});

/** The same data folder opened again, as after quitting (dispose) or a crash (no dispose). */
async function reopen(h: ReturnType<typeof makeCore>): Promise<AppCore> {
  const core = await reopenCore(h);
  cores.push(core);
  return core;
}

async function waitFor(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function texts(state: SessionState): string[] {
  return state.entries.flatMap((e) => (e.kind === 'agent' ? [e.text] : e.kind === 'user' ? e.content.map((b) => (b.type === 'text' ? b.text : '')) : []));
}

describeProtocols('restore on restart', (protocol) => {
  it('brings back tabs (order, active), transcripts and drafts after quitting', async () => {
    const h = makeCore();
    const a = await h.newSession();
    await h.prompt(a, 'hello alpha');
    const b = await h.newSession();
    await h.prompt(b, 'hello beta');
    await h.core.handlers['tabs.set']({ open: [b, a], active: a });
    await h.core.handlers['draft.set']({ sessionId: b, text: 'half-written thought' });
    const before = { a: h.core.sessions.sessions.get(a)!.state, b: h.core.sessions.sessions.get(b)!.state };
    await h.core.dispose();

    const core = await reopen(h);
    expect(core.state().tabs).toEqual({ open: [b, a], active: a });
    expect(texts(core.sessions.sessions.get(a)!.state)).toEqual(texts(before.a));
    expect(texts(core.sessions.sessions.get(b)!.state)).toEqual(texts(before.b));
    expect((await core.handlers['session.events']({ sessionId: a, afterSeq: 0 })).events.length).toBeGreaterThan(3);
    expect(await core.handlers['draft.get']({ sessionId: b })).toEqual({ text: 'half-written thought' });
    expect(await core.handlers['draft.get']({ sessionId: a })).toEqual({ text: '' });
  });

  it('reconnects with session/load on the next message, without duplicating replayed history', async () => {
    const h = makeCore();
    const a = await h.newSession();
    await h.prompt(a, 'hello alpha');
    await h.core.dispose();
    const core = await reopen(h);
    const before = core.sessions.sessions.get(a)!.state.entries.length;
    await core.handlers['session.prompt']({ sessionId: a, prompt: [{ type: 'text', text: 'second message' }] });
    await waitFor(() => core.sessions.sessions.get(a)!.state.entries.filter((e) => e.kind === 'stop').length === 2, 'second turn');
    const state = core.sessions.sessions.get(a)!.state;
    // The fixture's load replays canned history for ids it does not know; none of it shows.
    expect(texts(state).join('\n')).not.toContain('Earlier');
    expect(state.entries.length).toBe(before + 3); // user, agent, stop
    core.sessions.flush();
    // A v2 agent always offers session/resume, which the app prefers (the log has the conversation).
    expect(readFileSync(core.sessions.logFile(a), 'utf8')).toContain(protocol === 'v1' ? '"how":"load"' : '"how":"resume"');
  });

  it('uses session/resume where advertised', async () => {
    const h = makeCore(['--resume']);
    const a = await h.newSession();
    await h.core.dispose();
    const core = await reopen(h);
    await core.handlers['session.prompt']({ sessionId: a, prompt: [{ type: 'text', text: 'after resume' }] });
    await waitFor(() => core.sessions.sessions.get(a)!.state.entries.some((e) => e.kind === 'stop'), 'turn');
    core.sessions.flush();
    expect(readFileSync(core.sessions.logFile(a), 'utf8')).toContain('"how":"resume"');
  });

  // v1 only: every v2 agent can resume.
  it.runIf(protocol === 'v1')('shows a session read-only when its agent can neither resume nor load, and continues in a new one', async () => {
    const h = makeCore(['--no-load']);
    const a = await h.newSession();
    await h.prompt(a, 'remember the walrus');
    await h.core.dispose();
    const core = await reopen(h);
    const state = core.sessions.sessions.get(a)!.state;
    expect(state.readonlyReason).toMatch(/cannot resume or load/);
    await expect(core.handlers['session.prompt']({ sessionId: a, prompt: [{ type: 'text', text: 'x' }] })).rejects.toThrow(/read-only/);
    const { sessionId } = await core.handlers['session.continueNew']({ sessionId: a });
    expect(core.state().tabs.active).toBe(sessionId);
    const draft = (await core.handlers['draft.get']({ sessionId })).text;
    expect(draft).toContain('> **Me:** remember the walrus');
    expect(draft).toContain('**Echo:** remember the walrus');
    await waitFor(() => core.sessions.sessions.get(sessionId)!.state.acpSessionId !== null, 'new session to connect');
  });

  it('survives a crash: no dispose, deleted caches, a torn last line', async () => {
    const h = makeCore();
    const a = await h.newSession();
    await h.prompt(a, 'the quokka question');
    h.core.sessions.flush();
    // Crash: nothing flushed by dispose; the caches may be missing or stale.
    for (const name of ['index.json', 'search-index.json']) {
      const file = join(h.dataDir, 'sessions', name);
      if (existsSync(file)) unlinkSync(file);
    }
    writeFileSync(join(h.dataDir, 'sessions', `${a}.jsonl`), readFileSync(join(h.dataDir, 'sessions', `${a}.jsonl`), 'utf8') + '{"kind":"acp.up');
    const core = await reopen(h);
    const { hits } = await core.handlers['search.query']({ text: 'quokka' });
    expect(hits.map((hit) => hit.sessionId)).toEqual([a, a]);
    expect(hits.map((hit) => hit.entryKind).sort()).toEqual(['agent', 'user']);
    const state = core.sessions.sessions.get(a)!.state;
    expect(hits.every((hit) => state.entries.some((e) => e.id === hit.entryId))).toBe(true);
    expect(state.entries.some((e) => e.kind === 'notice' && /damaged line/.test(e.message))).toBe(true);
    await h.core.dispose();
  });

  it('a session whose saved search index is unusable is indexed again from its log after a restart (the list does not wait for the indexes)', async () => {
    const h = makeCore();
    const a = await h.newSession();
    await h.prompt(a, 'the narwhal question');
    // The search worker starts on first use or a while after the start: here, before quitting saves it.
    await h.core.history.search.idle();
    await h.core.dispose();
    const file = join(h.dataDir, 'sessions', 'search', `${encodeURIComponent(a)}.json`);
    expect(existsSync(file)).toBe(true);
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 200)); // torn: the manifest still lists it
    const core = await reopen(h);
    const { items } = await core.handlers['history.list']({});
    expect(items.map((item) => item.sessionId)).toEqual([a]);
    const { hits } = await core.handlers['search.query']({ text: 'narwhal' });
    expect(hits.map((hit) => hit.entryKind).sort()).toEqual(['agent', 'user']);
  });
});

describeProtocols('history', (protocol) => {
  it('lists local sessions from the index, and search follows new messages', async () => {
    const h = makeCore();
    cores.push(h.core);
    const a = await h.newSession();
    await h.prompt(a, 'usage');
    await h.prompt(a, 'about the axolotl');
    const { items } = await h.core.handlers['history.list']({});
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      sessionId: a,
      agentId: 'fixture',
      title: 'Fixture titled session',
      preview: 'usage',
      origin: 'local',
      open: true,
      messageCount: 4,
    });
    expect((await h.core.handlers['history.list']({ cwd: '/elsewhere' })).items).toEqual([]);
    const { hits } = await h.core.handlers['search.query']({ text: 'axolotl' });
    expect(hits[0]).toMatchObject({ sessionId: a, title: 'Fixture titled session' });
  });

  it('renames (the person wins over later agent titles), open or not', async () => {
    const h = makeCore();
    cores.push(h.core);
    const a = await h.newSession();
    await h.core.handlers['history.rename']({ sessionId: a, title: 'My name' });
    await h.prompt(a, 'usage'); // the agent sends session_info_update with its own title
    expect(h.core.sessions.sessions.get(a)!.state.title).toBe('My name');
    await h.core.handlers['session.close']({ sessionId: a });
    await h.core.handlers['history.rename']({ sessionId: a, title: 'Renamed while closed' });
    expect((await h.core.handlers['history.list']({})).items[0].title).toBe('Renamed while closed');
    await h.core.handlers['session.open']({ sessionId: a });
    expect(h.core.sessions.sessions.get(a)!.state.title).toBe('Renamed while closed');
  });

  it('exports Markdown and the raw log', async () => {
    const h = makeCore();
    cores.push(h.core);
    const a = await h.newSession();
    await h.prompt(a, 'tools');
    const md = await h.core.handlers['session.export']({ sessionId: a, format: 'markdown' });
    expect(md.mimeType).toBe('text/markdown');
    expect(md.filename).toMatch(/\.md$/);
    expect(md.text).toContain('### You\n\ntools');
    expect(md.text).toContain('#### Tool call: Create notes.md — completed');
    expect(md.text).toContain('+# Notes');
    const raw = await h.core.handlers['session.export']({ sessionId: a, format: 'jsonl' });
    expect(
      raw.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).seq),
    ).toEqual(Array.from({ length: h.core.sessions.sessions.get(a)!.state.lastSeq }, (_, i) => i + 1));
  });

  it("lists the agent's sessions page by page, opens one with session/load, merges it by id", async () => {
    const h = makeCore(['--list']);
    cores.push(h.core);
    const first = await h.core.handlers['history.agentSessions']({ agentId: 'fixture', cwd: h.workspace });
    expect(first.items.map((i) => [i.acpSessionId, i.title, i.origin, i.cwd])).toEqual([
      ['fx_listed_1', 'Listed session one', 'agent', h.workspace],
      ['fx_listed_2', 'Listed session two', 'agent', h.workspace],
    ]);
    expect(first.nextCursor).toBe('2');
    const second = await h.core.handlers['history.agentSessions']({ agentId: 'fixture', cwd: h.workspace, cursor: first.nextCursor! });
    expect(second.items.map((i) => i.acpSessionId)).toEqual(['fx_listed_3']);
    expect(second.nextCursor).toBeNull();

    const { sessionId } = await h.core.handlers['history.openAgentSession']({
      agentId: 'fixture',
      acpSessionId: 'fx_listed_1',
      cwd: h.workspace,
      title: 'Listed session one',
    });
    await h.waitFor(() => texts(h.state(sessionId) ?? ({ entries: [] } as never)).includes('Earlier answer from the listed session.'), 'history to load');
    expect(h.state(sessionId).title).toBe('Listed session one');
    expect(h.state(sessionId).acpSessionId).toBe('fx_listed_1');
    const again = await h.core.handlers['history.agentSessions']({ agentId: 'fixture', cwd: h.workspace });
    expect(again.items[0]).toMatchObject({ sessionId, acpSessionId: 'fx_listed_1', origin: 'both' });
    // Opening it a second time goes to the same local session.
    expect((await h.core.handlers['history.openAgentSession']({ agentId: 'fixture', acpSessionId: 'fx_listed_1', cwd: h.workspace })).sessionId).toBe(
      sessionId,
    );
  });

  // v1 only: a v2 resume replays the transcript (it stands for v1's session/load).
  it.runIf(protocol === 'v1')('a listed session opened on an agent with session/resume only says why its transcript is empty', async () => {
    const h = makeCore(['--list', '--resume', '--no-load']);
    cores.push(h.core);
    const { sessionId } = await h.core.handlers['history.openAgentSession']({
      agentId: 'fixture',
      acpSessionId: 'fx_listed_1',
      cwd: h.workspace,
      title: 'Listed session one',
    });
    await h.core.handlers['session.prompt']({ sessionId, prompt: [{ type: 'text', text: 'after resume' }] });
    await h.waitFor(() => Boolean(h.state(sessionId)?.entries.some((e) => e.kind === 'stop')), 'turn');
    const notices = h.state(sessionId).entries.filter((e) => e.kind === 'notice');
    expect(notices).toMatchObject([{ level: 'info', message: 'The agent resumed this session but does not send its earlier messages.' }]);
    // Said once, before the first message, not again on later connects.
    expect(h.state(sessionId).entries[0]).toMatchObject({ kind: 'notice' });
    h.core.sessions.flush();
    expect(readFileSync(h.core.sessions.logFile(sessionId), 'utf8')).toContain('"how":"resume"');
  });

  it('forks with session/fork into a tab that carries the transcript, then deletes locally and on the agent', async () => {
    const h = makeCore(['--list']);
    cores.push(h.core);
    const a = await h.newSession();
    await h.prompt(a, 'the original ocelot');
    const { sessionId: fork } = await h.core.handlers['history.fork']({ sessionId: a });
    expect(fork).not.toBe(a);
    const forked = h.core.sessions.sessions.get(fork)!.state;
    expect(texts(forked)).toEqual(texts(h.core.sessions.sessions.get(a)!.state));
    expect(forked.title).toMatch(/\(fork\)$/);
    expect(forked.acpSessionId).not.toBe(h.core.sessions.sessions.get(a)!.state.acpSessionId);
    expect(h.core.state().tabs.active).toBe(fork);
    await h.core.handlers['session.prompt']({ sessionId: fork, prompt: [{ type: 'text', text: 'only in the fork' }] });
    await h.waitFor(() => h.core.sessions.sessions.get(fork)!.state.entries.filter((e) => e.kind === 'stop').length === 2, 'fork turn');
    expect(texts(h.core.sessions.sessions.get(a)!.state).join()).not.toContain('only in the fork');
    const list = (await h.core.handlers['history.list']({})).items;
    expect(list.find((i) => i.sessionId === fork)?.forkedFrom).toBe(a);

    const result = await h.core.handlers['history.delete']({ sessionId: fork, alsoOnAgent: true });
    expect(result).toEqual({ ok: true, agentDeleted: true });
    expect(existsSync(h.core.sessions.logFile(fork))).toBe(false);
    expect(h.core.state().tabs.open).toEqual([a]);
    expect((await h.core.handlers['history.list']({})).items.map((i) => i.sessionId)).toEqual([a]);
    expect((await h.core.handlers['search.query']({ text: 'fork' })).hits).toEqual([]);
  });
});
