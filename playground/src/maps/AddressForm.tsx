import type { AddressValidation } from '@tandem/core'
import { useTandem } from '@tandem/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { describeError } from '../lib/format.js'

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
  const [error, setError] = useState<string>()
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
      setError(describeError(err)) // a ValidationError names the field, before anything is sent
    } finally {
      setBusy(false)
    }
  }

  const v = result?.verdict
  return (
    <section className="card" aria-labelledby="address-title">
      <h2 id="address-title">Validate an address</h2>
      <form onSubmit={submit} className="address-form">
        <label className="wide">
          Address line <input value={line} onChange={(e) => setLine(e.target.value)} />
        </label>
        <label>
          Locality <input value={locality} onChange={(e) => setLocality(e.target.value)} />
        </label>
        <label>
          Postal code <input value={postalCode} onChange={(e) => setPostalCode(e.target.value)} />
        </label>
        <label>
          Region (ISO code) <input value={regionCode} onChange={(e) => setRegionCode(e.target.value)} maxLength={2} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Validate'}
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
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
              Locality at {result.geocode.location.lat.toFixed(3)}, {result.geocode.location.lng.toFixed(3)} (
              {result.geocode.placeId})
            </p>
          )}
        </div>
      )}
    </section>
  )
}
