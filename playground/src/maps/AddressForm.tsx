import type { AddressValidation } from '@tandem/core'
import { useTandem } from '@tandem/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { errorField } from '../lib/format.js'

/** The input each request field is typed in ("addressLines[0]" is the address line). */
const INPUT_OF: [RegExp, string][] = [
  [/^addressLines/, 'address-line'],
  [/^locality$/, 'address-locality'],
  [/^postalCode$/, 'address-postal'],
  [/^regionCode$/, 'address-region'],
]

const COMPONENT_LABEL: Record<string, string> = {
  address_line: 'Address line',
  locality: 'Locality',
  postal_code: 'Postal code',
  country: 'Country',
}

export function AddressForm() {
  const { client } = useTandem()
  const [regionCode, setRegionCode] = useState('PT')
  const [line, setLine] = useState('Rua Augusta 100')
  const [locality, setLocality] = useState('Lisbon')
  const [postalCode, setPostalCode] = useState('1100053')
  const [result, setResult] = useState<AddressValidation>()
  const [error, setError] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const shown = useRef<HTMLDivElement>(null)
  useEffect(() => {
    shown.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' })
  }, [result])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      setResult(
        await client.maps.validateAddress({
          regionCode: regionCode.trim().toUpperCase(),
          addressLines: line
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean),
          ...(locality.trim() ? { locality: locality.trim() } : {}),
          ...(postalCode.trim() ? { postalCode: postalCode.trim() } : {}),
        }),
      )
    } catch (err) {
      setResult(undefined)
      setError(err) // a ValidationError (before sending) or the service's details name the field
    } finally {
      setBusy(false)
    }
  }

  const v = result?.verdict
  const field = error === undefined ? undefined : errorField(error)
  const invalidInput = field && INPUT_OF.find(([pattern]) => pattern.test(field))?.[1]
  /** The error's attachment to the input it is about; an error about none describes the form's button. */
  const attach = (id: string) =>
    invalidInput === id ? { 'aria-invalid': true, 'aria-describedby': 'address-error' } : {}
  return (
    <section className="card" aria-labelledby="address-title">
      <h2 id="address-title">Validate an address</h2>
      <form onSubmit={submit} className="address-form">
        <label className="wide">
          Address line{' '}
          <input id="address-line" value={line} onChange={(e) => setLine(e.target.value)} {...attach('address-line')} />
        </label>
        <label>
          Locality{' '}
          <input
            id="address-locality"
            value={locality}
            onChange={(e) => setLocality(e.target.value)}
            {...attach('address-locality')}
          />
        </label>
        <label>
          Postal code{' '}
          <input
            id="address-postal"
            value={postalCode}
            onChange={(e) => setPostalCode(e.target.value)}
            {...attach('address-postal')}
          />
        </label>
        <label>
          Region (ISO code){' '}
          <input
            id="address-region"
            value={regionCode}
            onChange={(e) => setRegionCode(e.target.value)}
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
      {error !== undefined && <ErrorDetails error={error} id="address-error" data-testid="address-error" />}
      {result && v && (
        <div data-testid="address-result" ref={shown}>
          <p className="verdict">
            <span className={`pill ${v.complete ? 'ok' : 'bad'}`}>{v.complete ? 'complete' : 'incomplete'}</span>
            <span className={`pill ${v.hasUnconfirmedComponents ? 'warn' : 'ok'}`}>
              {v.hasUnconfirmedComponents ? 'has unconfirmed parts' : 'all confirmed'}
            </span>
            <span className={`pill ${v.needsFixes ? 'bad' : 'ok'}`}>
              {v.needsFixes ? 'needs fixes' : 'no fixes needed'}
            </span>
          </p>
          <p className="small">
            <strong>{result.address.formattedAddress}</strong>
          </p>
          <table className="components">
            <thead>
              <tr>
                <th>Component</th>
                <th>Value</th>
                <th>Verdict</th>
              </tr>
            </thead>
            <tbody>
              {result.address.components.map((c) => (
                <tr key={c.type}>
                  <td>{COMPONENT_LABEL[c.type] ?? c.type}</td>
                  <td>{c.text || <span className="muted">—</span>}</td>
                  <td>
                    <span
                      className={`pill ${c.confirmation === 'confirmed' ? 'ok' : c.confirmation === 'fixed' ? 'info' : c.confirmation === 'missing' ? 'bad' : 'warn'}`}
                    >
                      {c.confirmation}
                    </span>
                    {c.issue && <div className="muted small">{c.issue}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {result.geocode && (
            <p className="muted small">
              {result.geocode.placeId.startsWith('street_') ? 'Street' : 'Locality'} at{' '}
              {result.geocode.location.lat.toFixed(3)}, {result.geocode.location.lng.toFixed(3)} (
              {result.geocode.placeId})
            </p>
          )}
        </div>
      )}
    </section>
  )
}
