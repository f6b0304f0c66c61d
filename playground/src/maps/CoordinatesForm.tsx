import type { LatLng } from '@tandem/core'
import { useState, type FormEvent } from 'react'

/** One coordinate, with the browser's own range check (the SDK checks again before sending). */
function Coordinate(props: { label: string; limit: number; value: string; onChange: (v: string) => void }) {
  return (
    <label>
      {props.label}
      <input
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
export function CoordinatesForm({ onPick }: { onPick: (at: LatLng) => void }) {
  const [lat, setLat] = useState('')
  const [lng, setLng] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onPick({ lat: Number(lat), lng: Number(lng) })
  }
  return (
    <form className="coords" onSubmit={submit} aria-label="Look up coordinates">
      <Coordinate label="Latitude" limit={90} value={lat} onChange={setLat} />
      <Coordinate label="Longitude" limit={180} value={lng} onChange={setLng} />
      <button type="submit">What is here?</button>
    </form>
  )
}
