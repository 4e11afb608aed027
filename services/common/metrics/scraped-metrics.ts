import { Counter, Gauge, type Registry } from 'prom-client';

/*
 * Metrics read from their source when Prometheus scrapes, so that nothing on the hot path counts
 * for them: a gauge set to the figure, a counter advanced by what a cumulative figure gained since
 * the last scrape.
 */

export function scrapedGauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => number,
): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

export function scrapedCounter(
  registry: Registry,
  name: string,
  help: string,
  readCumulative: () => number,
): Counter {
  let reported = 0;
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const current = readCumulative();
      this.inc(current - reported);
      reported = current;
    },
  });
}
