import type { McpServerSetting } from '../../src-shared/settings';

type RawObject = Record<string, unknown>;

/**
 * MCP servers from settings, in the shape `session/new` wants, keeping only the transports
 * the agent advertised (`mcpCapabilities.http` / `.sse`; stdio is always supported).
 */
export function toMcpServers(servers: readonly McpServerSetting[], agentCapabilities: RawObject): RawObject[] {
  const mcp = (agentCapabilities.mcpCapabilities ?? {}) as RawObject;
  return servers.flatMap((server): RawObject[] => {
    if ('url' in server && typeof server.url === 'string') {
      const remote = server as { type: 'http' | 'sse'; name: string; url: string; headers: Record<string, string> };
      if (!mcp[remote.type]) return [];
      return [{ type: remote.type, name: remote.name, url: remote.url, headers: pairs(remote.headers) }];
    }
    const local = server as { name: string; command: string; args: string[]; env: Record<string, string> };
    return [{ name: local.name, command: local.command, args: local.args, env: pairs(local.env) }];
  });
}

function pairs(record: Record<string, string> | undefined): { name: string; value: string }[] {
  return Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));
}
