import { z } from 'zod';

/** Body of every non-2xx answer, never a stack trace: clients read `message` or `detail`. */
export const apiErrorSchema = z
  .object({
    detail: z.string(),
    message: z.string(),
    code: z.string().describe('Stable machine-readable error code'),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('Per-field problems of a rejected request body or query'),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof apiErrorSchema>;

export const messageResponseSchema = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
