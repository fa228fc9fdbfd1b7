/**
 * The agents of the compatibility suite: the npm package and pinned version of each, how it is
 * started in ACP mode, and how it is pointed at the local scripted model server (environment
 * variables and config files in a home folder of its own, so nothing of the machine's real
 * accounts or settings is read). Found by reading each package's code; see docs/AGENTS.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CompatAgent {
  id: string;
  name: string;
  /** npm package and the pinned version the suite installs. */
  package: string;
  version: string;
  /** The executable in `node_modules/.bin` and its ACP-mode arguments. */
  bin: string;
  args: string[];
  /** Environment and config files for a model server at `url`, with `home` as HOME. */
  setup(url: string, home: string): Record<string, string>;
  /** Files under `src-main/quirks/` that handle this agent, matched by name. */
  quirks: RegExp;
}

const KEY = 'compat-key';
export const MODEL = 'compat-model';

function file(path: string, content: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

/** Claude asks before edits and commands ("Manual" mode) so the suite can answer a permission. */
function claudeSettings(home: string): Record<string, string> {
  file(join(home, '.claude/settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }, null, 2));
  return common(home);
}

/** What every agent gets: no update checks or telemetry, a home of its own. */
function common(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    NO_UPDATE_NOTIFIER: '1',
    DO_NOT_TRACK: '1',
  };
}

export const AGENTS: CompatAgent[] = [
  {
    id: 'claude-agent-acp',
    name: 'Claude Agent',
    package: '@agentclientprotocol/claude-agent-acp',
    version: '0.101.0',
    bin: 'claude-agent-acp',
    args: [],
    quirks: /claude/i,
    setup: (url, home) => ({
      ...claudeSettings(home),
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_MODEL: MODEL,
      ANTHROPIC_SMALL_FAST_MODEL: MODEL,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
    }),
  },
  {
    id: 'claude-code-acp',
    name: 'Claude Code',
    package: '@zed-industries/claude-code-acp',
    version: '0.16.2',
    bin: 'claude-code-acp',
    args: [],
    quirks: /claude/i,
    setup: (url, home) => ({
      ...claudeSettings(home),
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_MODEL: MODEL,
      ANTHROPIC_SMALL_FAST_MODEL: MODEL,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
    }),
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    package: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    args: ['--acp'],
    quirks: /gemini/i,
    setup: (url, home) => {
      file(
        join(home, '.gemini/settings.json'),
        JSON.stringify(
          {
            security: { auth: { selectedType: 'gemini-api-key' } },
            general: { disableAutoUpdate: true, disableUpdateNag: true },
            telemetry: { enabled: false },
            privacy: { usageStatisticsEnabled: false },
          },
          null,
          2,
        ),
      );
      return { ...common(home), GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: url, GEMINI_MODEL: MODEL, GEMINI_CLI_NO_RELAUNCH: 'true' };
    },
  },
  {
    id: 'qwen-code',
    name: 'Qwen Code',
    package: '@qwen-code/qwen-code',
    version: '0.24.4',
    bin: 'qwen',
    args: ['--acp'],
    quirks: /qwen/i,
    setup: (url, home) => {
      file(
        join(home, '.qwen/settings.json'),
        JSON.stringify(
          {
            security: { auth: { selectedType: 'openai' } },
            model: { name: MODEL },
            tools: { approvalMode: 'default' },
            general: { disableAutoUpdate: true },
            telemetry: { enabled: false },
            privacy: { usageStatisticsEnabled: false },
          },
          null,
          2,
        ),
      );
      return { ...common(home), OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${url}/v1`, OPENAI_MODEL: MODEL };
    },
  },
  {
    id: 'codex-acp',
    name: 'Codex',
    package: '@zed-industries/codex-acp',
    version: '0.16.0',
    bin: 'codex-acp',
    args: [],
    quirks: /codex/i,
    setup: (url, home) => {
      const codexHome = join(home, '.codex');
      file(
        join(codexHome, 'config.toml'),
        [
          // A known model name: Codex gives an unknown one no file-editing tool (no apply_patch, so no diffs).
          'model = "gpt-5.3-codex"',
          'model_provider = "compat"',
          'model_reasoning_summary = "detailed"',
          // No bubblewrap on most containers: run commands unsandboxed, but ask before anything but reads.
          'sandbox_mode = "danger-full-access"',
          'approval_policy = "untrusted"',

          '',
          '[model_providers.compat]',
          'name = "Compat model server"',
          `base_url = "${url}/v1"`,
          'env_key = "COMPAT_API_KEY"',
          'wire_api = "responses"',
          '',
        ].join('\n'),
      );
      return { ...common(home), CODEX_HOME: codexHome, COMPAT_API_KEY: KEY, OPENAI_API_KEY: KEY };
    },
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    package: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    args: ['acp'],
    quirks: /opencode/i,
    setup: (url, home) => ({
      ...common(home),
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        autoupdate: false,
        share: 'disabled',
        model: `compat/${MODEL}`,
        small_model: `compat/${MODEL}`,
        // OpenCode allows everything by default: ask, so the suite can answer a permission.
        permission: { edit: 'ask', bash: 'ask' },
        provider: {
          compat: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Compat model server',
            options: { baseURL: `${url}/v1`, apiKey: KEY },
            models: { [MODEL]: { name: 'Compat model', reasoning: true, tool_call: true } },
          },
        },
      }),
      OPENCODE_DISABLE_AUTOUPDATE: 'true',
      OPENCODE_DISABLE_MODELS_FETCH: 'true',
    }),
  },
  {
    id: 'github-copilot',
    name: 'GitHub Copilot',
    package: '@github/copilot',
    version: '1.0.102',
    bin: 'copilot',
    args: ['--acp'],
    quirks: /copilot/i,
    setup: (url, home) => ({
      ...common(home),
      COPILOT_HOME: join(home, '.copilot'),
      // The platform package unpacks itself on first start (≈10 s): keep that outside the throwaway home.
      COPILOT_CACHE_HOME: join(home, '..', 'copilot-cache'),
      COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
      COPILOT_PROVIDER_API_KEY: KEY,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_MODEL: MODEL,
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
    }),
  },
];
