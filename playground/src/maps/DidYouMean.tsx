import type { AddressComponent, AddressValidation } from '@tandem/core'
import type { Ref } from 'react'
import { MAPS_STRINGS as S } from './strings.js'

/** The fields as they were sent to `validateAddress`: what "Keep what I typed" keeps. */
export interface AddressFields {
  line: string
  locality: string
  postalCode: string
  regionCode: string
}

const COMPONENT_LABEL: Record<string, string> = {
  address_line: 'Address line',
  locality: 'Locality',
  postal_code: 'Postal code',
  country: 'Country',
}
const PILL: Record<AddressComponent['confirmation'], string> = {
  confirmed: 'ok',
  fixed: 'info',
  missing: 'bad',
  unconfirmed: 'warn',
}

const typedOf = (c: AddressComponent, typed: AddressFields) =>
  ({ address_line: typed.line, locality: typed.locality, postal_code: typed.postalCode, country: typed.regionCode })[
    c.type
  ] ?? ''

/** The validated fields "Use this" puts in the form (what the service left empty keeps what was typed). */
export function fieldsOf(result: AddressValidation, typed: AddressFields): AddressFields {
  const text = (type: AddressComponent['type']) => result.address.components.find((c) => c.type === type)?.text
  return {
    line: text('address_line') || typed.line,
    locality: text('locality') || typed.locality,
    postalCode: text('postal_code') || typed.postalCode,
    regionCode: typed.regionCode,
  }
}

export interface DidYouMeanProps {
  result: AddressValidation
  typed: AddressFields
  onUse: () => void
  onKeep: () => void
  ref?: Ref<HTMLDivElement>
}

/**
 * The "did you mean" step: the service's address, each field it corrected highlighted beside what
 * was typed, its verdict per field, and the choice between its version and the typed one.
 */
export function DidYouMean({ result, typed, onUse, onKeep, ref }: DidYouMeanProps) {
  const v = result.verdict
  const corrected = result.address.components.some((c) => c.confirmation === 'fixed')
  return (
    <div data-testid="address-result" ref={ref} className="did-you-mean">
      <h3 className="list-title" data-testid="did-you-mean">
        {corrected ? S.didYouMean : S.isThisIt}
      </h3>
      <p className="small">
        <strong>{result.address.formattedAddress}</strong>
      </p>
      <p className="verdict">
        <span className={`pill ${v.complete ? 'ok' : 'bad'}`}>{v.complete ? 'complete' : 'incomplete'}</span>
        <span className={`pill ${v.hasUnconfirmedComponents ? 'warn' : 'ok'}`}>
          {v.hasUnconfirmedComponents ? 'has unconfirmed parts' : 'all confirmed'}
        </span>
        <span className={`pill ${v.needsFixes ? 'bad' : 'ok'}`}>
          {v.needsFixes ? 'needs fixes' : 'no fixes needed'}
        </span>
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
          {result.address.components.map((c, i) => (
            <tr key={`${c.type}-${i}`} data-confirmation={c.confirmation}>
              <td>{COMPONENT_LABEL[c.type] ?? c.type}</td>
              <td>
                {c.confirmation === 'fixed' ? (
                  <>
                    <mark data-testid="corrected">{c.text}</mark>
                    <div className="muted small">{S.corrected(typedOf(c, typed))}</div>
                  </>
                ) : (
                  c.text || <span className="muted">—</span>
                )}
              </td>
              <td>
                <span className={`pill ${PILL[c.confirmation]}`}>{c.confirmation}</span>
                {c.issue && <div className="muted small">{c.issue}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.geocode && (
        <p className="muted small">
          {result.geocode.placeId.startsWith('street_') ? 'Street' : 'Locality'} at{' '}
          {result.geocode.location.lat.toFixed(3)}, {result.geocode.location.lng.toFixed(3)} ({result.geocode.placeId})
        </p>
      )}
      <p className="row">
        <button type="button" className="primary" onClick={onUse}>
          {S.useThis}
        </button>
        <button type="button" onClick={onKeep}>
          {S.keepTyped}
        </button>
      </p>
    </div>
  )
}
