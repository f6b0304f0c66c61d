import type { AddressComponent, AddressValidation } from '@tandem/core'

/** The fields as they were sent to `validateAddress`: what "Keep what I typed" keeps. */
export interface AddressFields {
  line: string
  locality: string
  postalCode: string
  regionCode: string
}

/**
 * What a component's check means to the person who typed it. `reformatted` and `corrected` are
 * both changes the service made (`fixed`): ones to see before "Use this" takes them, never "no
 * fixes needed". `reformatted`: only case, spaces or punctuation differ ("1100053" → "1100-053");
 * `corrected`: more than that. `unconfirmed` and `missing` are the person's to fix.
 */
export type Outcome = 'confirmed' | 'reformatted' | 'corrected' | 'unconfirmed' | 'missing'

export interface CheckedComponent {
  component: AddressComponent
  /** What was typed for it ("" when nothing was). */
  typed: string
  outcome: Outcome
}

/** The one account of a check: the rows the list shows, and the counts the summary says, from the same rows. */
export interface AddressSummary {
  rows: CheckedComponent[]
  /** Rows the service changed (reformatted or corrected). */
  changes: number
  /** Rows the person must fix (unconfirmed or missing). */
  toFix: number
}

/** Case, spaces and punctuation aside: what a reformatting keeps. */
const squeeze = (text: string) =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, '')

/** What was typed for each component: the address lines in order, then the other fields. */
function typedFor(components: readonly AddressComponent[], typed: AddressFields): string[] {
  const lines = typed.line
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  let line = 0
  return components.map((c) =>
    c.type === 'address_line'
      ? (lines[line++] ?? '')
      : c.type === 'locality'
        ? typed.locality.trim()
        : c.type === 'postal_code'
          ? typed.postalCode.trim()
          : typed.regionCode.trim(),
  )
}

export function summarizeAddress(result: AddressValidation, typed: AddressFields): AddressSummary {
  const { components } = result.address
  const typedTexts = typedFor(components, typed)
  const rows = components.map((component, i): CheckedComponent => {
    const was = typedTexts[i]!
    const outcome: Outcome =
      component.confirmation !== 'fixed'
        ? component.confirmation
        : was && squeeze(was) === squeeze(component.text)
          ? 'reformatted'
          : 'corrected'
    return { component, typed: was, outcome }
  })
  const count = (...outcomes: Outcome[]) => rows.filter((r) => outcomes.includes(r.outcome)).length
  return { rows, changes: count('reformatted', 'corrected'), toFix: count('unconfirmed', 'missing') }
}
