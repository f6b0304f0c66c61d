/** Every default of @tandem/react, in one place. */
export const DEFAULTS = {
  /**
   * With `suspense`, data is fresh at least this long (TanStack does the same): the component
   * mounts right after its suspension ends, and a staleTime of 0 would fetch the data again.
   */
  suspenseStaleTime: 1_000,
} as const
