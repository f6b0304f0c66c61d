// How each live collection's list is ordered and filtered, as the services do it: with these, a
// client keeps a cached list equal to what `list()` would answer after each change event,
// without asking (docs/cache.md, "Live lists"). Stated here once; the OpenAPI document carries
// them too (`x-tandem-list` on each list operation).

/** How a list param filters items: by `field`, with `match`; `unknown` means only the service can tell. */
export type FilterRule =
  | { field: string; match: 'equals' }
  /** The param, lower-cased, is one of the item's (lower-cased) values. */
  | { field: string; match: 'includes' }
  /** The item's timestamp is at or after the param's instant. */
  | { field: string; match: 'at-or-after' }
  | { match: 'unknown' }

export interface ListRule {
  /**
   * `creation`: oldest first, an item keeps its place for life, new items go last.
   * Otherwise by `field` (an ISO timestamp) in `direction`, ties by id in the same direction.
   */
  order: 'creation' | { field: string; direction: 'asc' | 'desc' }
  /** Every filtering param; `limit` and `cursor` page and never filter. */
  filters: Record<string, FilterRule>
}

const RESOURCES: ListRule = { order: 'creation', filters: {} }

export const LIST_RULES: Readonly<Record<string, ListRule>> = {
  'maps/resources': RESOURCES,
  'support/resources': RESOURCES,
  'realtime/resources': RESOURCES,
  'support/conversations': {
    order: { field: 'modifiedAt', direction: 'desc' },
    filters: {
      mailboxId: { field: 'mailboxId', match: 'equals' },
      status: { field: 'status', match: 'equals' },
      tag: { field: 'tags', match: 'includes' },
      modifiedSince: { field: 'modifiedAt', match: 'at-or-after' },
      // Words in the subject, preview, customer and customer messages: the client has no messages.
      query: { match: 'unknown' },
    },
  },
}
