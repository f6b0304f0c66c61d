import { LAT_MAX, LNG_MAX } from '@tandem/contract'
import type { LatLng } from '@tandem/core'
import { useState, type FormEvent } from 'react'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { errorField } from '../lib/format.js'

/** One coordinate, with the browser's own range check (the SDK checks again before sending). */
function Coordinate(props: {
  label: string
  limit: number
  value: string
  onChange: (v: string) => void
  invalid: boolean
  describedBy: string | undefined
}) {
  return (
    <label>
      {props.label}
      <input
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.describedBy}
        type="number"
        inputMode="decimal"
        min={-props.limit}
        max={props.limit}
        step="any"
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  )
}

/** The keyboard's way to look a point up (the map itself takes clicks): latitude and longitude. */
export function CoordinatesForm({ onPick, error }: { onPick: (at: LatLng) => void; error?: unknown }) {
  const [lat, setLat] = useState('')
  const [lng, setLng] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onPick({ lat: Number(lat), lng: Number(lng) })
  }
  // The lookup's error names the coordinate it is about (location.lat, location.lng), or neither.
  const field = error === undefined ? undefined : (errorField(error) ?? '')
  const about = (axis: 'lat' | 'lng') => field !== undefined && (field.endsWith(axis) || field === '')
  const describedBy = (axis: 'lat' | 'lng') => (about(axis) ? 'coords-error' : undefined)
  return (
    <>
      <form className="coords" onSubmit={submit} aria-label="Look up coordinates">
        <Coordinate
          label="Latitude"
          limit={LAT_MAX}
          value={lat}
          onChange={setLat}
          invalid={field?.endsWith('lat') ?? false}
          describedBy={describedBy('lat')}
        />
        <Coordinate
          label="Longitude"
          limit={LNG_MAX}
          value={lng}
          onChange={setLng}
          invalid={field?.endsWith('lng') ?? false}
          describedBy={describedBy('lng')}
        />
        <button type="submit">What is here?</button>
      </form>
      {error !== undefined && <ErrorDetails error={error} id="coords-error" data-testid="coords-error" />}
    </>
  )
}
