// Every string of an element can be overridden: `el.strings = { … }` merges a partial set over
// the element's English defaults, so a page translates what it needs and keeps the rest.

/**
 * The defaults with the page's overrides on top. Only known keys of the right kind count: a
 * typo or a string where a function belongs keeps the English one rather than break the panel.
 */
export function mergeStrings<S extends object>(defaults: S, overrides: Partial<S> | null | undefined): S {
  const merged = { ...defaults }
  if (overrides)
    for (const key of Object.keys(defaults) as (keyof S)[])
      if (typeof overrides[key] === typeof defaults[key]) merged[key] = overrides[key] as S[keyof S]
  return merged
}
