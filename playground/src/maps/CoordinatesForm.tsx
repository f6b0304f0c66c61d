import type { LatLng } from '@tandem/core'
import { useState, type FormEvent } from 'react'

/**
 * The keyboard's way to look a point up (the map itself takes clicks): latitude and longitude,
 * checked here with the browser's own number ranges before the SDK checks them again.
 */
export function CoordinatesForm({ onPick }: { onPick: (at: LatLng) => void }) {
  const [lat, setLat] = useState('')
  const [lng, setLng] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onPick({ lat: Number(lat), lng: Number(lng) })
  }
  return (
    <form className="coords" onSubmit={submit} aria-label="Look up coordinates">
      <label>
        Latitude
        <input
          type="number"
          inputMode="decimal"
          min={-90}
          max={90}
          step="any"
          required
          value={lat}
          onChange={(e) => setLat(e.target.value)}
        />
      </label>
      <label>
        Longitude
        <input
          type="number"
          inputMode="decimal"
          min={-180}
          max={180}
          step="any"
          required
          value={lng}
          onChange={(e) => setLng(e.target.value)}
        />
      </label>
      <button type="submit">What is here?</button>
    </form>
  )
}
