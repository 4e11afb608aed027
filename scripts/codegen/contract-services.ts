/** The providing services, each with one OpenAPI document `openapi/<name>.yaml`. */
export const contractServices = ['downloader', 'scheduler', 'sampler'] as const;
export type ContractService = (typeof contractServices)[number];

/** `scheduler` → `Scheduler`, for generated class and interface names. */
export function serviceClassName(service: ContractService): string {
  return service[0].toUpperCase() + service.slice(1);
}
