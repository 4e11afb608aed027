import type {
  DomainRule,
  LeaseResponse,
  ReportResult,
} from '../../services/scheduler/frontier/wire-types';

/** The synthetic crawl every stage uses: `domainCount` domains, every one at the same interval. */
export class BenchCorpus {
  constructor(
    readonly domainCount: number,
    readonly minIntervalMs: number,
    readonly linksPerPage: number,
  ) {}

  domainOf(index: number): string {
    return `d${index % this.domainCount}.bench.example`;
  }

  urlOf(index: number): string {
    return `https://${this.domainOf(index)}/page-${Math.floor(index / this.domainCount)}`;
  }

  /** The BullMQ job standing for URL `index`. */
  jobOf(index: number): { url: string; domain: string } {
    return { url: this.urlOf(index), domain: this.domainOf(index) };
  }

  ruleOf(index: number): DomainRule {
    return {
      domain: this.domainOf(index),
      verdict: 'csr',
      undetermined_reason: null,
      min_interval_ms: this.minIntervalMs,
      wait_selector: '#content',
      priority_rank: 10,
      robots_txt: 'User-agent: *\nDisallow: /private/\n',
      verified_at: '2026-08-15T06:00:00Z',
      revisit_interval_seconds: null,
    };
  }

  /**
   * The report of a whole lease: every task done with a few links — one new URL of the same domain
   * (the frontier grows as a crawl does), the others pages the frontier already holds, on other
   * domains (the de-duplication path).
   */
  reportOf(lease: LeaseResponse, serial: { next: number }, frontierSize: number): ReportResult[] {
    const seededDomainCount = Math.min(frontierSize, this.domainCount);
    return lease.task_list.map((task) => {
      const links = [];
      for (let index = 0; index < this.linksPerPage; index += 1) {
        serial.next += 1;
        const url =
          index === 0
            ? `https://${task.domain}/found-${serial.next}`
            : this.urlOf(serial.next % seededDomainCount);
        links.push({
          url,
          rel: '',
          dom_position: index === 0 ? ('main' as const) : ('navigation' as const),
          anchor_text: 'x',
        });
      }
      return {
        url_hash: task.url_hash,
        url: task.url,
        fetch_status: 'done' as const,
        fail_reason: null,
        object_id: task.url_hash,
        statistics: {
          render_duration_ms: 900,
          html_byte_count: 40_000,
          text_character_count: 5000,
          link_count: links.length,
        },
        health_signal: {
          xhr_total_count: 12,
          xhr_error_count: 0,
          xhr_throttled_count: 0,
          xhr_denied_count: 0,
          has_console_error: false,
          redirect_target_hash: task.url_hash,
        },
        link_list: links,
        etag: null,
        last_modified_at: null,
        fetched_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
    });
  }
}
