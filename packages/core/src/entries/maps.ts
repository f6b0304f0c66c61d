// @tandem/core/maps: `maps(client)`, the maps service of a modular client.
export { createMapsService, decodePolyline, maps } from '../services/maps.js'
export type * from '../services/maps.js'
