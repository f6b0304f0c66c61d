/**
 * The support panel's words, in one place so an app can replace any of them (another language,
 * its own tone): pass `strings={{ … }}` to `<SupportPanel>`; what is left out keeps its default.
 */
export const SUPPORT_STRINGS = {
  /** The list's count. The service gives no total: with more pages it is "15+", never a guess. */
  count: (loaded: number, more: boolean) => (more ? `${loaded}+` : `${loaded}`),
  countTitle: (loaded: number, more: boolean) =>
    more ? `${loaded} loaded; the service has more (Load more)` : `${loaded} in all`,
  shown: (loaded: number, more: boolean) => (more ? `${loaded} shown, more to load` : `all ${loaded} shown`),
  loadMore: 'Load more',
  loading: 'Loading…',
  close: 'Close',
  closeLabel: 'Close the conversation',
  setStatus: 'Set status',
  /** Why a status button does nothing: the service reopens a closed conversation only through a reply. */
  reopenByReply: 'A closed conversation reopens with a reply',
}

export type SupportStrings = typeof SUPPORT_STRINGS
