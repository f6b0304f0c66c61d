import { useCallback, useState, type KeyboardEvent } from 'react'

export interface ComboboxOptions<T> {
  items: readonly T[]
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
export function useCombobox<T>({ items, onChoose, onClear }: ComboboxOptions<T>) {
  const [open, setOpen] = useState(false)
  const [index, setIndex] = useState(-1)
  const expanded = open && items.length > 0
  // A shorter list than the index (narrowed as the user types): no option is active.
  const active = expanded && index < items.length ? index : -1

  const close = useCallback(() => {
    setOpen(false)
    setIndex(-1)
  }, [])
  /** Typing: the list follows the text, and the visual focus returns to it (no active option). */
  const typed = useCallback(() => {
    setOpen(true)
    setIndex(-1)
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
