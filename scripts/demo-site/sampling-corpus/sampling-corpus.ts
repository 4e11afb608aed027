import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OriginAccessLog } from '../origin-access-log';
import { answerCorpusRequest } from './corpus-sites';
import { CORPUS_DOMAINS, corpusHost, type CorpusDomain } from './corpus-table';

export interface ServedCorpusDomain {
  readonly entry: CorpusDomain;
  /** The domain (host) the sampler is asked about. */
  readonly host: string;
  /** `http://<host>:<port>` (nothing listens there for a `closed` domain). */
  readonly baseUrl: string;
  /** What the scheduler would hand the sampler: the home page and the row's seen paths. */
  readonly seenUrlList: readonly string[];
}

export interface SamplingCorpus {
  readonly domains: readonly ServedCorpusDomain[];
  /** The port every corpus host serves on. */
  readonly port: number;
  /** Every request the corpus hosts answered (to prove the traffic came through the downloader). */
  readonly accessLog: OriginAccessLog;
  stop(): Promise<void>;
}

export interface SamplingCorpusOptions {
  /** Only these rows (by name); default all. */
  readonly names?: readonly string[];
  /** One port for every host; 0 (default) picks a free one. */
  readonly port?: number;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function serverFor(entry: CorpusDomain, baseUrl: () => string, accessLog: OriginAccessLog): Server {
  const host = corpusHost(entry);
  return createServer((request, response) => {
    accessLog.recordWhenClosed(host, request, response);
    // A hanging origin: the request is read and never answered (the socket closes on stop()).
    if (entry.site.kind === 'hang') return;
    answerCorpusRequest(entry, baseUrl(), request, response);
  });
}

/**
 * Serves the labelled corpus on loopback: each row on its own address `127.0.1.<octet>`, all on
 * one port (a `closed` row's address is left unbound, so connecting there is refused).
 */
export async function startSamplingCorpus(
  options: SamplingCorpusOptions = {},
): Promise<SamplingCorpus> {
  const entries = CORPUS_DOMAINS.filter(
    (entry) => options.names === undefined || options.names.includes(entry.name),
  );
  const accessLog = new OriginAccessLog();
  for (let attempt = 1; ; attempt += 1) {
    const servers: Server[] = [];
    let port = options.port ?? 0;
    try {
      for (const entry of entries.filter((candidate) => candidate.site.kind !== 'closed')) {
        const server = serverFor(entry, () => `http://${corpusHost(entry)}:${port}`, accessLog);
        servers.push(server);
        port = await listen(server, port, corpusHost(entry));
      }
      if (port === 0) {
        // Only closed rows: borrow a free port number for their URLs.
        const probe = createServer();
        port = await listen(probe, 0, '127.0.0.1');
        await close(probe);
      }
      const servedPort = port;
      return {
        port: servedPort,
        accessLog,
        domains: entries.map((entry) => {
          const host = corpusHost(entry);
          const baseUrl = `http://${host}:${servedPort}`;
          return {
            entry,
            host,
            baseUrl,
            seenUrlList: [`${baseUrl}/`, ...entry.seenPaths.map((path) => `${baseUrl}${path}`)],
          };
        }),
        stop: async () => {
          await Promise.all(servers.map(close));
        },
      };
    } catch (error) {
      await Promise.all(servers.filter((server) => server.listening).map(close));
      // The port picked on the first address was taken on another one: pick again.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port || attempt >= 5)
        throw error;
    }
  }
}
