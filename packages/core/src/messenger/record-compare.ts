// How the messenger's stores compare two versions of one of the service's records (a
// conversation before and after a push): whether anything differs, and which one is newer.

/** Whether two flat records hold the same values (a conversation, before and after a push). */
export function sameFields(a: object, b: object): boolean {
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  const keys = Object.keys(x)
  return keys.length === Object.keys(y).length && keys.every((k) => Object.is(x[k], y[k]))
}

/** Whether `next` is no older than `current` (by `modifiedAt`), so it may replace it. */
export const notOlder = (next: { modifiedAt: string }, current: { modifiedAt: string }): boolean =>
  Date.parse(next.modifiedAt) >= Date.parse(current.modifiedAt)
