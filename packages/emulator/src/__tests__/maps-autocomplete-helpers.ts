// Shared by the autocomplete tests: one token, and answers by input (typing asks the same prefixes again).
import type { PlaceAutocomplete } from '@tandem/contract'
import { call } from './helpers.js'
import { ok, useMaps } from './maps-helpers.js'

export function useAutocomplete() {
  const maps = useMaps()
  let token: string | undefined
  const url = (input: string, params: Record<string, string> = {}) =>
    `/maps/v1/places:autocomplete?${new URLSearchParams({ input, ...params })}`
  /** The raw answer, for refusals. */
  const raw = async (query: string) => call(maps.emu(), query, { token: (token ??= await maps.emu().mintToken()) })
  const suggest = (input: string, params: Record<string, string> = {}) => ok<PlaceAutocomplete>(raw(url(input, params)))
  return { ...maps, raw, url, suggest }
}
