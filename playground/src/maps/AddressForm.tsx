import type { AddressValidation } from '@tandem/core'
import type { AutocompleteSelection, PlaceSuggestion } from '@tandem/core/maps'
import { useTandem } from '@tandem/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { errorField } from '../lib/format.js'
import { AddressCombobox } from './AddressCombobox.js'
import { DidYouMean, fieldsOf, type AddressFields } from './DidYouMean.js'
import { MAPS_STRINGS as S } from './strings.js'

/** The input each request field is typed in ("addressLines[0]" is the address line). */
const INPUT_OF: [RegExp, string][] = [
  [/^addressLines/, 'address-line'],
  [/^locality$/, 'address-locality'],
  [/^postalCode$/, 'address-postal'],
  [/^regionCode$/, 'address-region'],
]

const START: AddressFields = { line: 'Rua Augusta 100', locality: 'Lisbon', postalCode: '1100053', regionCode: 'PT' }

/** The check of the fields as sent, or of a chosen suggestion: the "did you mean" step shows it. */
interface Checked {
  result: AddressValidation
  typed: AddressFields
}

/**
 * The address form: the address line suggests addresses as it is typed (a chosen one fills the
 * line, the locality and the region), and Validate or a choice shows the service's check of it,
 * its corrections highlighted, with "Use this" or "Keep what I typed".
 */
export function AddressForm() {
  const { client } = useTandem()
  const [fields, setFields] = useState(START)
  const [checked, setChecked] = useState<Checked>()
  const [error, setError] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState('')
  const shown = useRef<HTMLDivElement>(null)
  useEffect(() => {
    shown.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' })
  }, [checked])
  const set = (key: keyof AddressFields) => (value: string) => setFields((f) => ({ ...f, [key]: value }))

  /** The latest check: an earlier one answering later (a slow select) is dropped, not shown over it. */
  const latest = useRef(0)
  /** Its answer (or its error) replaces the last; `current` tells the answer it is still the latest. */
  const check = async (answer: (current: () => boolean) => Promise<Checked | undefined>) => {
    const mine = ++latest.current
    const current = () => mine === latest.current
    setBusy(true)
    setError(undefined)
    setNote('')
    try {
      const result = await answer(current)
      if (current()) setChecked(result)
    } catch (err) {
      if (!current()) return
      setChecked(undefined)
      setError(err) // a ValidationError (before sending) or the service's details name the field
    } finally {
      if (current()) setBusy(false)
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const typed = fields
    void check(async () => ({
      typed,
      result: await client.maps.validateAddress({
        regionCode: typed.regionCode.trim().toUpperCase(),
        addressLines: typed.line
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean),
        ...(typed.locality.trim() ? { locality: typed.locality.trim() } : {}),
        ...(typed.postalCode.trim() ? { postalCode: typed.postalCode.trim() } : {}),
      }),
    }))
  }

  // A suggestion fills the fields at once (a city only the locality); its region and check follow.
  const choose = (s: PlaceSuggestion, selection: Promise<AutocompleteSelection>) => {
    const city = s.kind === 'city' ? s.mainText : (s.secondaryText.split(',')[0]?.trim() ?? '')
    const filled = { ...fields, line: s.kind === 'city' ? '' : s.mainText, locality: city, postalCode: '' }
    setFields(filled)
    void check(async (current) => {
      const { place, validation } = await selection
      if (current()) set('regionCode')(place.countryCode)
      return validation ? { result: validation, typed: { ...filled, regionCode: place.countryCode } } : undefined
    })
  }

  const decide = (use: boolean) => {
    if (use && checked) setFields(fieldsOf(checked.result, checked.typed))
    setChecked(undefined)
    setNote(use ? S.used : S.kept)
    document.getElementById('address-line')?.focus() // the buttons are gone: the focus goes back to the form
  }

  const field = error === undefined ? undefined : errorField(error)
  const invalidInput = field && INPUT_OF.find(([pattern]) => pattern.test(field))?.[1]
  /** The error's attachment to the input it is about; an error about none describes the form's button. */
  const attach = (id: string) =>
    invalidInput === id ? { 'aria-invalid': true, 'aria-describedby': 'address-error' } : {}
  return (
    <section className="card" aria-labelledby="address-title">
      <h2 id="address-title">Validate an address</h2>
      <form onSubmit={submit} className="address-form">
        <div className="wide field">
          <label htmlFor="address-line">Address line</label>
          <AddressCombobox
            id="address-line"
            value={fields.line}
            onInput={set('line')}
            onChoose={choose}
            invalid={invalidInput === 'address-line'}
            describedBy={invalidInput === 'address-line' ? 'address-error' : undefined}
          />
        </div>
        <label>
          Locality{' '}
          <input
            id="address-locality"
            value={fields.locality}
            onChange={(e) => set('locality')(e.target.value)}
            {...attach('address-locality')}
          />
        </label>
        <label>
          Postal code{' '}
          <input
            id="address-postal"
            value={fields.postalCode}
            onChange={(e) => set('postalCode')(e.target.value)}
            {...attach('address-postal')}
          />
        </label>
        <label>
          Region (ISO code){' '}
          <input
            id="address-region"
            value={fields.regionCode}
            onChange={(e) => set('regionCode')(e.target.value)}
            maxLength={2}
            {...attach('address-region')}
          />
        </label>
        <button
          type="submit"
          disabled={busy}
          aria-describedby={error !== undefined && !invalidInput ? 'address-error' : undefined}
        >
          {busy ? 'Checking…' : 'Validate'}
        </button>
      </form>
      <p className="hint">
        Typing the address line suggests addresses (<code>usePlaceAutocomplete</code>); choosing one fills the fields
        and checks it (<code>validateAddress</code>).
      </p>
      <p role="status" className="hint" data-testid="address-note">
        {note}
      </p>
      {error !== undefined && <ErrorDetails error={error} id="address-error" data-testid="address-error" />}
      {checked && (
        <DidYouMean
          ref={shown}
          result={checked.result}
          typed={checked.typed}
          onUse={() => decide(true)}
          onKeep={() => decide(false)}
        />
      )}
    </section>
  )
}
