// Shared by the maps tests: an emulator without rate limits, typed answers and refusals.
import { beforeAll, expect } from 'vitest'
import { authed, expectError, useEmulator } from './helpers.js'

export const LISBON = { lat: 38.7167, lng: -9.1333 }
export const PORTO = { lat: 41.1496, lng: -8.611 }

export interface Place {
  name: string
  countryCode: string
  placeId: string
  types: string[]
  location: { lat: number; lng: number }
  distanceMeters?: number
}
export interface Page {
  data: Place[]
  nextCursor: string | null
}

/** One emulator for the file (geodata loaded before its tests), and calls against it. */
export function useMaps() {
  const emu = useEmulator({ plans: { maps: false } })
  const post = (path: string, json: unknown) => authed(emu(), `/maps/v1/${path}`, { method: 'POST', json })
  const get = (path: string) => authed(emu(), `/maps/v1/${path}`)
  // Loads the geodata once, so each test measures only its own work.
  beforeAll(async () => {
    await ok(post('geocode', { query: 'Lisbon' }))
  })
  return { emu, post, get }
}

export async function ok<T>(res: Promise<Response>): Promise<T> {
  const r = await res
  const body = (await r.json()) as T
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status} ${JSON.stringify(body)}`)
  return body
}

export async function refused(res: Promise<Response>, status: number, code: string, field?: string): Promise<void> {
  const body = await expectError(await res, status, code)
  if (field) expect(body.error.details?.[0]?.field).toBe(field)
}
