import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * Prometheus metrics of the contract edge. Label values that come from clients (unknown field
 * names) are bounded per operation so a misbehaving sender cannot explode the series count.
 */
export class ContractMetrics {
  readonly requestCount: Counter<'operation' | 'status'>;
  readonly requestDuration: Histogram<'operation'>;
  readonly unknownFieldCount: Counter<'operation' | 'location' | 'field'>;
  private readonly seenUnknownFields = new Map<string, Set<string>>();
  private static readonly maximumDistinctUnknownFields = 50;

  constructor(registry: Registry, serviceName: string) {
    const prefix = `${serviceName}_contract`;
    this.requestCount = new Counter({
      name: `${prefix}_request_total`,
      help: 'Requests answered by the contract router, by operation and HTTP status.',
      labelNames: ['operation', 'status'],
      registers: [registry],
    });
    this.requestDuration = new Histogram({
      name: `${prefix}_request_duration_seconds`,
      help: 'Time from request to answer, by operation.',
      labelNames: ['operation'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.unknownFieldCount = new Counter({
      name: `${prefix}_unknown_field_total`,
      help: "Fields the contract does not declare, in requests received (location query or body) or peers' answers (location answer): accepted, but a sign of naming drift or of a newer peer.",
      labelNames: ['operation', 'location', 'field'],
      registers: [registry],
    });
  }

  countUnknownField(operation: string, location: string, field: string): void {
    const key = `${operation}:${location}`;
    const seen = this.seenUnknownFields.get(key) ?? new Set<string>();
    this.seenUnknownFields.set(key, seen);
    if (!seen.has(field) && seen.size >= ContractMetrics.maximumDistinctUnknownFields) {
      this.unknownFieldCount.inc({ operation, location, field: '_other' });
      return;
    }
    seen.add(field);
    this.unknownFieldCount.inc({ operation, location, field });
  }
}
