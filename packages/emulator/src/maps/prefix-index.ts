// Which entries of a list have a word starting with a given word, by its first one or two letters:
// autocomplete scans only those instead of all ~24 000 places (a few times fewer per request, which
// the tests typing address after address feel). A superset, never fewer: the rule decides after.

/** Keys of a word: its first letter, and its first two. */
const keysOf = (word: string) => (word.length > 1 ? [word.slice(0, 1), word.slice(0, 2)] : [word])

export interface PrefixIndex {
  /**
   * The positions (ascending) of the entries that may have a word starting with one of `words`;
   * `undefined` when any is missing (a reading without words matches every entry).
   */
  candidates(words: readonly (string | undefined)[]): number[] | undefined
}

export function createPrefixIndex(entries: readonly (readonly string[])[]): PrefixIndex {
  const positions = new Map<string, number[]>()
  entries.forEach((words, i) => {
    for (const key of new Set(words.flatMap(keysOf))) {
      const list = positions.get(key)
      if (list) list.push(i)
      else positions.set(key, [i])
    }
  })
  return {
    candidates(words) {
      if (words.some((w) => !w)) return undefined
      const keys = new Set(words.map((w) => w!.slice(0, 2)))
      if (keys.size === 1) return positions.get([...keys][0]!) ?? []
      return [...new Set([...keys].flatMap((k) => positions.get(k) ?? []))].sort((a, b) => a - b)
    },
  }
}
