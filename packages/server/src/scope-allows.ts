/**
 * Does one granted scope cover one required capability?
 * - equal;
 * - a prefix at a ':' boundary (`support` allows `support:write`);
 * - ends in '*' and the rest is a prefix (`chat:*` allows `chat:lobby`); `*` allows all.
 */
function grants(granted: string, required: string): boolean {
  if (granted === required) return true
  if (granted.endsWith('*')) {
    const prefix = granted.slice(0, -1)
    return required.length > prefix.length && required.startsWith(prefix)
  }
  return required.startsWith(`${granted}:`)
}

/**
 * Whether any granted scope allows `required`. One extra rule: `X:write` implies `X:read`,
 * because a caller that may change a resource may see it too.
 */
export function scopeAllows(granted: readonly string[], required: string): boolean {
  if (!Array.isArray(granted) || typeof required !== 'string' || required.length === 0) return false
  const impliedBy = /^(.+):read$/.exec(required)?.[1]
  const alternatives = impliedBy === undefined ? [required] : [required, `${impliedBy}:write`]
  return granted.some(
    (scope: unknown) =>
      typeof scope === 'string' && scope.length > 0 && alternatives.some((needed) => grants(scope, needed)),
  )
}
