import { z } from 'zod';

// Shared pieces for request schemas. List endpoints are cursor-paginated:
// pass back `nextCursor` from the previous page as `cursor`.
export const PaginationQuery = z.object({
  cursor: z.string().cuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const IdParam = z.object({
  id: z.string().cuid(),
});

// ISO 8601 with an offset, e.g. 2025-10-20T07:00:00+01:00
export const IsoDateTime = z.string().datetime({ offset: true });

export type Pagination = z.infer<typeof PaginationQuery>;
