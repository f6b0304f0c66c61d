// How support normalises what the contract already checked (shapes and lengths: spec/rest-inputs.ts).

/** Tags are trimmed, lower-cased and de-duplicated (as help desks do), in the order given. */
export const normalTags = (tags: readonly string[]): string[] => [...new Set(tags.map((t) => t.trim().toLowerCase()))]

/** An optional query parameter: an allowed '' (`?query=`) reads as absent, as clients often send it. */
export const optionalParam = (query: URLSearchParams, name: string): string | undefined => query.get(name) || undefined
