import {
  ADDRESS_VALIDATION_FIELDS,
  MAX_ADDRESS_LINE,
  MAX_ADDRESS_LINES,
  MAX_PERSON_NAME,
  MAX_POSTAL_CODE,
} from '@tandem/contract'
import type { RequestClient } from '../../client-request.js'
import type { CallOptions } from '../../types.js'
import { requireArray, requireString } from '../../validate.js'
import { ifPresent, mapsCall, shape } from './shape.js'
import type { AddressParams, AddressValidation } from './types.js'

/** An address checked and completed by the service, component by component. */
export async function validateAddress(
  client: RequestClient,
  params: AddressParams,
  options?: CallOptions,
): Promise<AddressValidation> {
  const body = shape(params, {
    regionCode: (v, f) => requireString(v, f, 2),
    // At least one line (the contract's minItems): an empty form is refused before anything is sent.
    addressLines: (v, f) => requireArray(v, f, MAX_ADDRESS_LINES, (x, g) => requireString(x, g, MAX_ADDRESS_LINE), 1),
    locality: ifPresent((v, f) => requireString(v, f, MAX_PERSON_NAME)),
    postalCode: ifPresent((v, f) => requireString(v, f, MAX_POSTAL_CODE)),
  })
  return mapsCall(client, 'addresses:validate', { body }, ADDRESS_VALIDATION_FIELDS, options)
}
