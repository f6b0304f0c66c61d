import type { AddressComponent, AddressValidation } from '@tandem/core'
import type { Ref } from 'react'
import { summarizeAddress, type AddressFields, type Outcome } from './address-summary.js'
import { MAPS_STRINGS as S } from './strings.js'

export type { AddressFields } from './address-summary.js'

const PILL: Record<Outcome, string> = {
  confirmed: 'ok',
  reformatted: 'info',
  corrected: 'info',
  missing: 'bad',
  unconfirmed: 'warn',
}

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
 * The "did you mean" step: the service's address, each field it changed highlighted beside what
 * was typed, and the choice between its version and the typed one. The summary and the list are
 * one account (summarizeAddress): a reformatted postal code is a change in both, never "no fixes
 * needed" beside "fixed".
 */
export function DidYouMean({ result, typed, onUse, onKeep, ref }: DidYouMeanProps) {
  const { rows, changes, toFix } = summarizeAddress(result, typed)
  const tone = toFix > 0 ? 'bad' : changes > 0 ? 'info' : 'ok'
  return (
    <div data-testid="address-result" ref={ref} className="did-you-mean">
      <h3 className="list-title" data-testid="did-you-mean">
        {changes > 0 ? S.didYouMean : S.isThisIt}
      </h3>
      <p className="small">
        <strong>{result.address.formattedAddress}</strong>
      </p>
      <p className="verdict">
        <span className={`pill ${tone}`} data-testid="address-summary" data-changes={changes} data-to-fix={toFix}>
          {S.summary(changes, toFix)}
        </span>
      </p>
      <table className="components">
        <thead>
          <tr>
            <th>{S.columns.component}</th>
            <th>{S.columns.value}</th>
            <th>{S.columns.verdict}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ component: c, typed: was, outcome }, i) => (
            <tr key={`${c.type}-${i}`} data-confirmation={c.confirmation} data-outcome={outcome}>
              <td>{S.components[c.type] ?? c.type}</td>
              <td>
                {outcome === 'reformatted' || outcome === 'corrected' ? (
                  <>
                    <mark data-testid="corrected">{c.text}</mark>
                    <div className="muted small">{S.changedFrom(outcome, was)}</div>
                  </>
                ) : (
                  c.text || <span className="muted">—</span>
                )}
              </td>
              <td>
                <span className={`pill ${PILL[outcome]}`}>{S.outcome[outcome]}</span>
                {c.issue && <div className="muted small">{c.issue}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.geocode && <p className="muted small">{S.geocodedAt(result.geocode.placeId, result.geocode.location)}</p>}
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
