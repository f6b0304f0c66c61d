/** Key id → secret. More than one key means a rotation is in progress. */
export type KeySet = Record<string, string> | ReadonlyArray<{ id: string; secret: string }>

/**
 * Normalises a KeySet to a Map, so a hostile `kid` such as `__proto__` or `constructor`
 * can never resolve through Object.prototype.
 */
export function toKeyMap(keys: KeySet): Map<string, string> {
  if (typeof keys !== 'object' || keys === null) throw new TypeError('keys must be an object or an array')
  const entries: Array<readonly [unknown, unknown]> = Array.isArray(keys)
    ? keys.map((key: unknown) => {
        const { id, secret } = (typeof key === 'object' && key !== null ? key : {}) as {
          id?: unknown
          secret?: unknown
        }
        return [id, secret] as const
      })
    : Object.entries(keys)
  const map = new Map<string, string>()
  for (const [id, secret] of entries) {
    if (typeof id !== 'string' || id.length === 0) throw new TypeError('keys: every key id must be a non-empty string')
    if (typeof secret !== 'string' || secret.length === 0)
      throw new TypeError('keys: every secret must be a non-empty string')
    if (map.has(id)) throw new TypeError('keys: duplicate key id')
    map.set(id, secret)
  }
  return map
}
