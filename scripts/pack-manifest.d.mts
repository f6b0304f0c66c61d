/** The manifest as published: `manifest` with its `exports` stripped of the `@tandem/source` condition. */
export function published<T extends { exports?: unknown }>(manifest: T): T
