import { z } from 'zod';
import { request } from './define';
import { agentIdSchema, PROTOCOL_SETTINGS } from '../settings';

/** Remote agents (issue 26, docs/REMOTE.md): adding one from the UI; its secret headers go to the secret store. */
export const remoteRequests = {
  'agent.addRemote': request<{ ok: true; warning: string | null }>()(
    z
      .object({
        id: agentIdSchema,
        name: z.string().min(1).max(200),
        url: z.string().min(1).max(2048),
        headers: z
          .array(
            z
              .object({
                name: z
                  .string()
                  .min(1)
                  .max(200)
                  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'),
                value: z.string().max(8192),
                secret: z.boolean(),
              })
              .strict(),
          )
          .max(50),
        allowInsecure: z.boolean(),
        clientFs: z.boolean(),
        clientTerminal: z.boolean(),
        protocol: z.enum(PROTOCOL_SETTINGS).optional(),
      })
      .strict(),
    'Add a remote agent (ws/wss/http/https URL) to settings.json; secret header values are kept in the secret store, never in the file.',
  ),
};
