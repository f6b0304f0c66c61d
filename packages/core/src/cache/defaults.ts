// The resource cache's defaults (docs/cache.md), with the cache: an app that never builds one does
// not ship them. `DEFAULTS.cache` of @tandem/core is this object.
export const CACHE_DEFAULTS = {
  /** 0: data is stale at once, so every mount revalidates (TanStack Query's default). */
  staleTime: 0,
  /** Browser only; where there is no `window` entries are kept until `clear()`. */
  gcTime: 300_000, // 5 min (a literal: an expression here would keep this object in every bundle)
  refetchOnFocus: true,
  refetchOnReconnect: true,
  refetchInterval: false,
  /** Hydrated data counts as fresh at least this long, so the hydrating render does not refetch it. */
  hydrateFreshMs: 2_000,
} as const
