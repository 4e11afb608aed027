/** The v2 API path's shared rules: the endpoint mapping, JSON Pointers, and text comparison. */
export { apiEndpointProblems, endpointUrlFor, type ApiEndpoint } from './api-endpoint-mapping';
export { childPointer, valueAtPointer } from './json-pointer';
export {
  matchedCharacterCount,
  textOfJsonValue,
  wordCharacterCount,
  wordsOf,
} from './content-text';
