import { capabilitiesOf } from '../../src-shared/acp/agent';
import type { Raw } from '../../src-shared/acp/read';
import type { McpServerSetting } from '../../src-shared/settings';

type RemoteServer = Extract<McpServerSetting, { url: string }>;
const isRemote = (server: McpServerSetting): server is RemoteServer => typeof server.url === 'string' && 'type' in server;

/**
 * MCP servers from settings, in the shape `session/new` wants, keeping only the transports
 * the agent advertised (`mcpCapabilities.http` / `.sse`; stdio is always supported).
 */
export function toMcpServers(servers: readonly McpServerSetting[], agentCapabilities: Raw): Raw[] {
  const { mcp } = capabilitiesOf(agentCapabilities);
  return servers.flatMap((server): Raw[] => {
    if (isRemote(server)) {
      if (!mcp[server.type]) return [];
      return [{ type: server.type, name: server.name, url: server.url, headers: pairs(server.headers) }];
    }
    return [{ name: server.name, command: server.command, args: server.args, env: pairs(server.env) }];
  });
}

function pairs(record: Record<string, string> | undefined): { name: string; value: string }[] {
  return Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));
}
