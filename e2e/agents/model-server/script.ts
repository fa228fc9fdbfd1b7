/**
 * The scripted "model": a pure function from a conversation (normalised from any wire format)
 * to the next step. A prompt carries a marker, `[compat:<scenario> ws=<absolute folder>]`; the
 * number of tool results after the last marker picks the step, so an agent's own retries and
 * side requests (titles, summaries, next-speaker checks) never derail the scenario.
 */

export interface ToolSpec {
  name: string;
  /** JSON Schema of the arguments (`undefined` for a free-form tool such as Codex's `apply_patch`). */
  schema?: { properties?: Record<string, { type?: unknown }>; required?: string[] };
}

export type Message = { role: 'user'; text: string } | { role: 'toolResult'; text: string } | { role: 'assistant'; text: string };

export interface Conversation {
  tools: ToolSpec[];
  messages: Message[];
  /** The request asks for a JSON answer (structured output), e.g. Gemini's next-speaker check. */
  wantsJson?: boolean;
}

export interface ToolCall {
  name: string;
  /** Arguments of a function tool. */
  args?: Record<string, unknown>;
  /** Input of a free-form (custom) tool. */
  input?: string;
}

export interface Step {
  thought?: string;
  text?: string;
  call?: ToolCall;
  /** Keep streaming slowly until the client goes away (the Stop scenario). */
  slow?: boolean;
}

export const FILE = 'hello.txt';
export const SHELL_COMMAND = `echo shell-ok && cat ${FILE}`;
export const FINAL_TEXT = 'Compat turn complete: wrote, read, edited and ran.';
export const SECOND_TEXT = 'Second turn answered.';
export const THOUGHT = 'Planning the compat run: write, read, edit, then a shell command.';

const MARKER = /\[compat:(\w+)(?: ws=([^\]\s]+))?\]/g;

/** The prompt marker a test puts in its message. */
export function marker(scenario: 'full' | 'slow' | 'second', workspace?: string): string {
  return `[compat:${scenario}${workspace ? ` ws=${workspace}` : ''}]`;
}

export function nextStep(conversation: Conversation): Step {
  if (conversation.wantsJson) return { text: JSON.stringify({ reasoning: 'The model answered; the user speaks next.', next_speaker: 'user' }) };
  let scenario: string | undefined;
  let workspace = '';
  let results = 0;
  for (const message of conversation.messages) {
    // The last marker of a message: an agent may merge a stopped prompt with the next one into one
    // user message (Claude Code 0.16 does), and a model answers the latest request.
    const match = message.role === 'user' ? [...message.text.matchAll(MARKER)].pop() : undefined;
    if (match) {
      scenario = match[1];
      workspace = match[2] ?? '';
      results = 0;
    } else if (message.role === 'toolResult') results++;
  }
  // Side requests (titles, summaries) come without tools: a short plain answer.
  if (!scenario || conversation.tools.length === 0) return { text: 'Compat run' };
  if (scenario === 'second') return { text: SECOND_TEXT };
  if (scenario === 'slow') return { text: 'Working slowly', slow: true };
  const path = workspace ? `${workspace.replace(/\/$/, '')}/${FILE}` : FILE;
  const tools = conversation.tools;
  switch (results) {
    case 0:
      return { thought: THOUGHT, text: `Writing ${FILE}.`, call: writeCall(tools, path, 'hello\n') };
    case 1:
      return { call: readCall(tools, path) };
    case 2:
      return { text: 'Now the edit.', call: editCall(tools, path, 'hello', 'HELLO') };
    case 3:
      return { call: shellCall(tools, SHELL_COMMAND) };
    default:
      return { text: FINAL_TEXT };
  }
}

const NAMES = {
  write: ['write_file', 'write', 'create', 'create_file'],
  read: ['read_file', 'read', 'view', 'read_text_file'],
  edit: ['replace', 'edit', 'str_replace', 'edit_file', 'str_replace_editor'],
  shell: ['run_shell_command', 'bash', 'shell', 'exec_command', 'shell_command', 'local_shell'],
};
const PROPS = {
  path: ['file_path', 'filePath', 'absolute_path', 'path', 'file', 'filename'],
  content: ['content', 'file_text', 'text', 'contents'],
  old: ['old_string', 'oldString', 'old_str', 'old_text'],
  new: ['new_string', 'newString', 'new_str', 'new_text'],
  command: ['command', 'cmd'],
};

export function findTool(tools: ToolSpec[], action: keyof typeof NAMES): ToolSpec | undefined {
  for (const name of NAMES[action]) {
    // Claude Code's ACP adapter offers its client-backed tools over MCP: `mcp__acp__Write`.
    const tool = tools.find((t) => t.name.toLowerCase().replace(/^mcp__[a-z0-9_-]+?__/, '') === name);
    if (tool) return tool;
  }
  return undefined;
}

function prop(tool: ToolSpec, kind: keyof typeof PROPS): string {
  const props = Object.keys(tool.schema?.properties ?? {});
  return PROPS[kind].find((name) => props.includes(name)) ?? PROPS[kind][0];
}

/** Fills required arguments the script has no meaning for (descriptions, flags). */
function fill(tool: ToolSpec, args: Record<string, unknown>): Record<string, unknown> {
  for (const name of tool.schema?.required ?? []) {
    if (name in args) continue;
    const type = tool.schema?.properties?.[name]?.type;
    args[name] =
      type === 'boolean' ? false : type === 'number' || type === 'integer' ? (/timeout/i.test(name) ? 60_000 : 1) : type === 'array' ? [] : 'compat step';
  }
  return args;
}

function patch(body: string): ToolCall {
  return { name: 'apply_patch', input: `*** Begin Patch\n${body}\n*** End Patch\n` };
}

function patchCall(tools: ToolSpec[], body: string): ToolCall {
  const tool = tools.find((t) => t.name === 'apply_patch');
  const call = patch(body);
  // `apply_patch` is free-form in the Responses API and a function with `input` elsewhere.
  return tool?.schema ? { name: tool.name, args: { [Object.keys(tool.schema.properties ?? { input: {} })[0] ?? 'input']: call.input } } : call;
}

function writeCall(tools: ToolSpec[], path: string, content: string): ToolCall {
  const tool = findTool(tools, 'write');
  if (!tool) {
    if (tools.some((t) => t.name === 'apply_patch'))
      return patchCall(
        tools,
        `*** Add File: ${path}\n${content
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n')}`,
      );
    return shellCall(tools, `printf '${content.replace(/\n/g, '\\n')}' > ${path}`);
  }
  if (tool.name === 'str_replace_editor') return { name: tool.name, args: { command: 'create', path, file_text: content } };
  return { name: tool.name, args: fill(tool, { [prop(tool, 'path')]: path, [prop(tool, 'content')]: content }) };
}

function readCall(tools: ToolSpec[], path: string): ToolCall {
  const tool = findTool(tools, 'read');
  if (!tool) return shellCall(tools, `cat ${path}`);
  if (tool.name === 'str_replace_editor') return { name: tool.name, args: { command: 'view', path } };
  return { name: tool.name, args: fill(tool, { [prop(tool, 'path')]: path }) };
}

function editCall(tools: ToolSpec[], path: string, oldText: string, newText: string): ToolCall {
  const tool = findTool(tools, 'edit');
  if (!tool) {
    if (tools.some((t) => t.name === 'apply_patch')) return patchCall(tools, `*** Update File: ${path}\n@@\n-${oldText}\n+${newText}`);
    return shellCall(tools, `sed -i 's/${oldText}/${newText}/' ${path}`);
  }
  if (tool.name === 'str_replace_editor') return { name: tool.name, args: { command: 'str_replace', path, old_str: oldText, new_str: newText } };
  return { name: tool.name, args: fill(tool, { [prop(tool, 'path')]: path, [prop(tool, 'old')]: oldText, [prop(tool, 'new')]: newText }) };
}

function shellCall(tools: ToolSpec[], command: string): ToolCall {
  const tool = findTool(tools, 'shell');
  if (!tool) return { name: 'shell', args: { command } };
  const name = prop(tool, 'command');
  const type = tool.schema?.properties?.[name]?.type;
  const value = type === 'array' ? ['bash', '-lc', command] : command;
  return { name: tool.name, args: fill(tool, { [name]: value }) };
}
