// The abortable sleep moved to services/common/backoff/ (domain code uses it too, and domain code
// must not depend on the contract runtime). This name stays only for the downloader's lease loop,
// which another change is rewriting; import from '../backoff/abortable-sleep' in new code.
export { sleep } from '../backoff/abortable-sleep';
