import type { AutocompleteSelection, PlaceSuggestion } from '@tandem/core/maps'
import { usePlaceAutocomplete } from '@tandem/react'
import { useEffect } from 'react'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { MAPS_STRINGS as S } from './strings.js'
import { useCombobox } from './use-combobox.js'

export interface AddressComboboxProps {
  /** The input's id: its `<label htmlFor>` names it. */
  id: string
  value: string
  onInput: (text: string) => void
  /** A suggestion chosen (Enter or a click), and its place and validation on the way (`select`). */
  onChoose: (suggestion: PlaceSuggestion, selection: Promise<AutocompleteSelection>) => void
  invalid?: boolean
  describedBy?: string
}

/**
 * A text input with address suggestions (`usePlaceAutocomplete`, within the maps quota) as a
 * WAI-ARIA 1.2 combobox: the list's count is said in a polite live region, and a quota that makes
 * autocomplete ask less is a quiet hint (polite too), never an error (the field still takes what is
 * typed). A failed request (the network, the quota's wait) is said as a sentence below the input.
 */
export function AddressCombobox({ id, value, onInput, onChoose, invalid, describedBy }: AddressComboboxProps) {
  const { status, suggestions, error, degraded, setQuery, select, clear } = usePlaceAutocomplete()
  const box = useCombobox({
    items: suggestions,
    keyOf: (s) => s.id,
    onChoose: (s) => onChoose(s, select(s)),
    onClear: () => {
      onInput('')
      clear()
    },
  })
  const listId = `${id}-suggestions`
  const errorId = `${id}-suggest-error`
  const failed = status === 'error' && error !== null
  const optionId = (i: number) => `${id}-option-${i}`
  // The active option in view when the list scrolls (a short phone screen).
  useEffect(() => {
    if (box.active >= 0) document.getElementById(optionId(box.active))?.scrollIntoView({ block: 'nearest' })
  })
  const answered = status === 'success' && value.trim() !== '' && (box.expanded || suggestions.length === 0)

  return (
    <div className="combobox">
      <input
        id={id}
        role="combobox"
        aria-expanded={box.expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={box.active >= 0 ? optionId(box.active) : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={[describedBy, failed && errorId].filter(Boolean).join(' ') || undefined}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => {
          onInput(e.target.value)
          setQuery(e.target.value)
          box.typed()
        }}
        onKeyDown={box.onKeyDown}
        onBlur={box.close}
      />
      {/* Always in the page, so aria-controls names an element; hidden while closed. */}
      <ul id={listId} role="listbox" aria-label={S.suggestionsLabel} className="suggestions" hidden={!box.expanded}>
        {suggestions.map((s, i) => (
          <li
            key={s.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === box.active}
            // The input keeps the focus (and the list stays open) until the click chooses.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => box.choose(i)}
          >
            <strong>{s.mainText}</strong> <span className="muted small">{s.secondaryText}</span>
          </li>
        ))}
      </ul>
      <div role="status" className="sr-only" data-testid="suggestion-count">
        {answered ? S.count(suggestions.length) : ''}
      </div>
      {/* Always in the page, so a screen reader hears the hint when it appears. */}
      <p role="status" className="hint" data-testid="autocomplete-degraded" hidden={!degraded}>
        {degraded ? (degraded.mode === 'paused' ? S.paused : S.slower) : ''}
      </p>
      {failed && <ErrorDetails error={error} service="maps" id={errorId} data-testid="autocomplete-error" />}
    </div>
  )
}
