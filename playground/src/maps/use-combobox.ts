import { useCallback, useState, type KeyboardEvent } from 'react'

export interface ComboboxOptions<T> {
  items: readonly T[]
  /** An item's identity: the active option follows it when the items change (a newer answer). */
  keyOf: (item: T) => string
  onChoose: (item: T) => void
  /** Escape on a closed list: the text is cleared. */
  onClear: () => void
}

/**
 * The keyboard of a WAI-ARIA 1.2 combobox with a list (APG "autocomplete list"): the focus stays in
 * the input, the active option is only `aria-activedescendant`. ArrowDown/ArrowUp open the list
 * and move (wrapping), Enter chooses the active option (without one, the form submits), Escape
 * closes the list and a second Escape clears, Tab and a blur close it.
 */
export function useCombobox<T>({ items, keyOf, onChoose, onClear }: ComboboxOptions<T>) {
  const [open, setOpen] = useState(false)
  // By key, not by index: a newer answer puts another place at the same index. Gone from the
  // items (narrowed as the user types, or a new answer without it): no option is active.
  const [activeKey, setActiveKey] = useState<string>()
  const expanded = open && items.length > 0
  const active = expanded && activeKey !== undefined ? items.findIndex((item) => keyOf(item) === activeKey) : -1
  const setIndex = (i: number) => {
    const item = items[i]
    setActiveKey(item === undefined ? undefined : keyOf(item))
  }

  const close = useCallback(() => {
    setOpen(false)
    setActiveKey(undefined)
  }, [])
  /** Typing: the list follows the text, and the visual focus returns to it (no active option). */
  const typed = useCallback(() => {
    setOpen(true)
    setActiveKey(undefined)
  }, [])
  const choose = (i: number) => {
    const item = items[i]
    if (item === undefined) return
    close()
    onChoose(item)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = items.length
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (n === 0) return
        e.preventDefault() // not the caret's move to the text's end
        setOpen(true)
        if (e.altKey) return // Alt+ArrowDown opens without moving
        const down = e.key === 'ArrowDown'
        if (!expanded || active < 0) setIndex(down ? 0 : n - 1)
        else setIndex((active + (down ? 1 : n - 1)) % n)
        return
      }
      case 'Enter':
        if (active < 0) return close() // the form's submit: what was typed
        e.preventDefault()
        return choose(active)
      case 'Escape':
        e.preventDefault()
        if (expanded) close()
        else onClear()
        return
      case 'Tab':
        return close()
    }
  }
  return { expanded, active, typed, close, choose, onKeyDown }
}
