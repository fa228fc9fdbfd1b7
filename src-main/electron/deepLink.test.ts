import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, parseDeepLink } from './deepLink';

describe('parseDeepLink', () => {
  it('accepts acp-desktop://install/<agent-id>', () => {
    expect(parseDeepLink('acp-desktop://install/claude-code-acp')).toEqual({ kind: 'installAgent', agentId: 'claude-code-acp' });
    expect(parseDeepLink('acp-desktop://install/gemini')).toEqual({ kind: 'installAgent', agentId: 'gemini' });
    expect(parseDeepLink('acp-desktop://install/my_agent.v2')).toEqual({ kind: 'installAgent', agentId: 'my_agent.v2' });
    expect(parseDeepLink('acp-desktop://install/codex/')).toEqual({ kind: 'installAgent', agentId: 'codex' });
    expect(parseDeepLink('ACP-Desktop://install/codex')).toEqual({ kind: 'installAgent', agentId: 'codex' });
    expect(parseDeepLink(`acp-desktop://install/${'a'.repeat(100)}`)).toEqual({ kind: 'installAgent', agentId: 'a'.repeat(100) });
  });

  it('rejects everything else', () => {
    const rejected = [
      undefined,
      null,
      42,
      {},
      '',
      'acp-desktop://install/',
      'acp-desktop://install',
      'acp-desktop://install//codex',
      'acp-desktop://INSTALL/codex',
      'acp-desktop://uninstall/codex',
      'acp-desktop://open/codex',
      'acp-desktop:install/codex',
      'acp-desktop:/install/codex',
      'https://install/codex',
      'file://install/codex',
      'other://install/codex',
      'acp-desktop://install/codex?version=1',
      'acp-desktop://install/codex#x',
      'acp-desktop://install/codex/extra',
      'acp-desktop://user:pw@install/codex',
      'acp-desktop://install:8080/codex',
      'acp-desktop://install/../../etc/passwd',
      'acp-desktop://install/..',
      'acp-desktop://install/.',
      'acp-desktop://install/.hidden',
      'acp-desktop://install/-rf',
      'acp-desktop://install/Codex',
      'acp-desktop://install/co%64ex',
      'acp-desktop://install/co dex',
      'acp-desktop://install/codex\n',
      'acp-desktop://install/codex\u0000',
      'acp-desktop://install/codéx',
      'acp-desktop://install/co\\dex',
      'acp-desktop://install/<script>',
      `acp-desktop://install/${'a'.repeat(101)}`,
      ` acp-desktop://install/codex`,
    ];
    for (const url of rejected) expect(parseDeepLink(url), JSON.stringify(url)).toBeNull();
  });
});

describe('deepLinkFromArgv', () => {
  it('finds the link among the arguments Windows and Linux pass', () => {
    expect(deepLinkFromArgv(['C:\\Program Files\\ACP Desktop\\ACP Desktop.exe', '--allow-file-access-from-files', 'acp-desktop://install/gemini'])).toEqual({
      kind: 'installAgent',
      agentId: 'gemini',
    });
    expect(deepLinkFromArgv(['/opt/acp/acp-desktop'])).toBeNull();
    expect(deepLinkFromArgv(['/opt/acp/acp-desktop', 'acp-desktop://install/../x'])).toBeNull();
  });
});
