import type { HelpSearchOptions, HelpSearchSnapshot } from '@tandem/core/messenger'
import { useEffect, useMemo, useSyncExternalStore } from 'react'
import { useMessenger } from './use-messenger.js'

/**
 * The published docs that match `query`, as the customer types: searched after a pause in typing
 * (`debounceMs`), the request of an older query aborted; `idle` while the query is blank.
 *
 * @example
 * ```tsx
 * const [query, setQuery] = useState('')
 * const { articles, status } = useHelpSearch(query)
 * ```
 */
export function useHelpSearch(query: string, options: HelpSearchOptions = {}): HelpSearchSnapshot {
  const m = useMessenger()
  const { debounceMs, limit } = options
  const search = useMemo(() => m.helpSearch({ debounceMs, limit }), [m, debounceMs, limit])
  useEffect(() => {
    search.search(query)
    return search.close // a new query, or unmounting: what is pending is cancelled
  }, [search, query])
  return useSyncExternalStore(search.subscribe, search.getSnapshot, search.getSnapshot)
}
