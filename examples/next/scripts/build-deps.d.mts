/** Builds the SDK packages the example imports when their dist is missing or stale. */
export function buildDeps(): Promise<void>
