// A list rendered by key: a row's node is made once and updated in place when its item changes,
// so a refresh never takes focus from a button the user is on, nor closes an expanded frame.
// Rows follow the items' order (inserting a node that is already there moves it).

export interface Row<T> {
  readonly node: HTMLElement
  update(item: T): void
}

export interface KeyedList<T> {
  /** `force`: update every row even if its item is the same object (the strings changed). */
  render(items: readonly T[], force?: boolean): void
}

export function createKeyedList<T, K>(list: HTMLElement, key: (item: T) => K, create: () => Row<T>): KeyedList<T> {
  const rows = new Map<K, { row: Row<T>; item: T }>()
  return {
    render(items, force = false) {
      const shown = new Set(items.map(key))
      for (const [k, r] of rows) {
        if (shown.has(k)) continue
        r.row.node.remove()
        rows.delete(k)
      }
      items.forEach((item, i) => {
        const k = key(item)
        let r = rows.get(k)
        if (!r) {
          r = { row: create(), item }
          r.row.update(item)
          rows.set(k, r)
        } else if (force || r.item !== item) {
          r.item = item
          r.row.update(item)
        }
        if (list.children[i] !== r.row.node) list.insertBefore(r.row.node, list.children[i] ?? null)
      })
    },
  }
}
