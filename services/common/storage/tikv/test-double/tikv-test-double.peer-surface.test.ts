import * as grpc from '@grpc/grpc-js';
import { loadTikvProtocol } from '../protocol/load-protocol';
import {
  BatchCommandsRequest,
  BatchCommandsResponse,
  HEALTH_STATUS,
  TsoRequest,
  TsoResponse,
} from '../protocol/wire-types';
import { RawProtocolFixture, startRawProtocolFixture } from './raw-protocol-fixture';

/**
 * What the official clients (client-go, client-rust, tikv-python) need from the double beyond our
 * own client's calls, each found missing by running those clients against it: RawDeleteRange,
 * a BatchCommands stream that survives a command it does not know, the gRPC health service and
 * PD's timestamp stream. Tested with plain protocol calls.
 */
describe('TiKV test double: the surface official clients use', () => {
  let fixture: RawProtocolFixture;
  beforeEach(async () => {
    fixture = await startRawProtocolFixture();
  });
  afterEach(() => fixture.close());

  const b = (text: string) => Buffer.from(text);

  async function putAll(keys: string[]): Promise<void> {
    for (const key of keys) {
      const { context, address } = await fixture.contextFor(b(key));
      await fixture.tikv
        .get(address)
        .call('RawPut', { context, key: b(key), value: b(key), for_cas: true }, 1000);
    }
  }

  async function liveKeys(start: string, end: string): Promise<string[]> {
    const { context, address } = await fixture.contextFor(b(start));
    const answer = await fixture.tikv
      .get(address)
      .call('RawScan', { context, start_key: b(start), end_key: b(end), limit: 100 }, 1000);
    return answer.kvs.map((pair) => pair.key.toString());
  }

  describe('RawDeleteRange', () => {
    it('deletes [start, end) inside a region and leaves the bounds around it', async () => {
      await putAll(['a', 'b', 'b1', 'c', 'd']);
      const { context, address } = await fixture.contextFor(b('b'));
      const answer = await fixture.tikv
        .get(address)
        .call('RawDeleteRange', { context, start_key: b('b'), end_key: b('d') }, 1000);
      expect(answer).toMatchObject({ region_error: null, error: '' });
      expect(await liveKeys('a', 'f')).toEqual(['a', 'd']);
    });

    it('refuses a range that passes the region end, and an inverted range, like TiKV', async () => {
      // The first region is ["", "g"): an end beyond it, or an unbounded end, is not in the region.
      await putAll(['a', 'f']);
      const { context, address } = await fixture.contextFor(b('a'));
      const client = fixture.tikv.get(address);
      for (const end of [b('h'), Buffer.alloc(0)]) {
        const beyond = await client.call(
          'RawDeleteRange',
          { context, start_key: b('a'), end_key: end },
          1000,
        );
        expect(beyond.region_error?.key_not_in_region?.end_key).toEqual(b('g'));
      }
      const inverted = await client.call(
        'RawDeleteRange',
        { context, start_key: b('c'), end_key: b('b') },
        1000,
      );
      expect(inverted.region_error?.message).toMatch(/invalid delete range command/);
      expect(await liveKeys('a', 'g')).toEqual(['a', 'f']);
    });

    it('is served inside the BatchCommands stream', async () => {
      await putAll(['a', 'b', 'c']);
      const { context, address } = await fixture.contextFor(b('a'));
      const stream = openBatchStream(address);
      try {
        stream.write(
          encodeBatch({
            requests: [{ RawDeleteRange: { context, start_key: b('a'), end_key: b('c') } }],
            request_ids: [7],
          }),
        );
        const [response] = await stream.next(1);
        expect(response.request_ids).toEqual(['7']);
        expect(response.responses[0].RawDeleteRange).toMatchObject({ error: '' });
        expect(await liveKeys('a', 'g')).toEqual(['c']);
      } finally {
        stream.close();
      }
    });
  });

  describe('BatchCommands with a command the double does not serve', () => {
    it('answers that request with an empty response and keeps the stream for the next ones', async () => {
      await putAll(['a']);
      const { context, address } = await fixture.contextFor(b('a'));
      const stream = openBatchStream(address);
      try {
        // Request id 1 carries tikvpb's field 1 (a transactional Get), which these protos lack.
        stream.write(unknownCommandMessage(1));
        const [unknown] = await stream.next(1);
        expect(unknown.request_ids).toEqual(['1']);
        expect(unknown.responses[0].RawGet ?? null).toBeNull();

        // Same stream: an unknown and a known command in one message, then a known one alone.
        stream.write(
          Buffer.concat([
            unknownCommandMessage(2),
            encodeBatch({ requests: [{ RawGet: { context, key: b('a') } }], request_ids: [3] }),
          ]),
        );
        stream.write(
          encodeBatch({ requests: [{ RawGet: { context, key: b('a') } }], request_ids: [4] }),
        );
        const [mixed, alone] = await stream.next(2);
        expect(mixed.request_ids).toEqual(['2', '3']);
        expect(mixed.responses[1].RawGet?.value).toEqual(b('a'));
        expect(alone.responses[0].RawGet?.value).toEqual(b('a'));
      } finally {
        stream.close();
      }
      const unknownRecords = fixture.double.requestLog.filter(
        (record) => record.method === 'BatchCommands/unknown',
      );
      expect(unknownRecords).toHaveLength(2);
    });
  });

  describe('gRPC health service', () => {
    it('answers SERVING on every store and PD member, NOT_FOUND for an unknown service', async () => {
      const addresses = [
        ...fixture.double.stores.map((store) => store.address),
        ...fixture.double.pdEndpoints,
      ];
      for (const address of addresses) {
        const answer = await fixture.health.get(address).call('Check', { service: '' }, 1000);
        expect(answer.status).toBe(HEALTH_STATUS.SERVING);
      }
      const store = fixture.health.get(fixture.double.stores[0].address);
      expect((await store.call('Check', { service: 'tikvpb.Tikv' }, 1000)).status).toBe(
        HEALTH_STATUS.SERVING,
      );
      await expect(store.call('Check', { service: 'no.Such' }, 1000)).rejects.toMatchObject({
        code: grpc.status.NOT_FOUND,
      });
    });

    it('reports SERVING on Watch and keeps the stream open', async () => {
      const protocol = loadTikvProtocol();
      const client = new protocol.HealthClient(
        fixture.double.stores[0].address,
        grpc.credentials.createInsecure(),
      );
      const watch = (
        client as unknown as Record<'Watch', (request: object) => grpc.ClientReadableStream<object>>
      ).Watch({ service: '' });
      try {
        const first = await new Promise((resolve, reject) => {
          watch.once('data', resolve);
          watch.once('error', reject);
        });
        expect(first).toEqual({ status: HEALTH_STATUS.SERVING });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(watch.destroyed).toBe(false);
      } finally {
        watch.cancel();
        client.close();
      }
    });
  });

  describe('PD Tso', () => {
    it('returns strictly increasing timestamps, each request a block of `count`', async () => {
      const tso = openTsoStream(fixture.double.pdEndpoints[0]);
      try {
        const counts = [1, 5, 1, 1000, 3];
        for (const count of counts) tso.write({ header: fixture.header(), count, dc_location: '' });
        const answers = await tso.next(counts.length);
        let previousLast = -1n;
        answers.forEach((answer, index) => {
          expect(answer.count).toBe(counts[index]);
          const last = composed(answer);
          const first = last - BigInt(counts[index] - 1);
          expect(first).toBeGreaterThan(previousLast);
          previousLast = last;
        });
        const physical = Number(answers[answers.length - 1].timestamp!.physical);
        expect(Math.abs(physical - Date.now())).toBeLessThan(60_000);
      } finally {
        tso.close();
      }
    });

    it('keeps increasing across a PD leader failover', async () => {
      const first = openTsoStream(fixture.double.pdEndpoints[0]);
      first.write({ header: fixture.header(), count: 10, dc_location: '' });
      const [before] = await first.next(1);
      first.close();
      fixture.double.stopPdLeader();
      const second = openTsoStream(fixture.double.pdEndpoints[1]);
      try {
        second.write({ header: fixture.header(), count: 1, dc_location: '' });
        const [after] = await second.next(1);
        expect(composed(after)).toBeGreaterThan(composed(before));
      } finally {
        second.close();
      }
    });

    it('refuses a follower request, a foreign cluster id and a zero count, ending the stream', async () => {
      const cases: Array<[string, TsoRequest, grpc.status]> = [
        [
          fixture.double.pdEndpoints[1],
          { header: fixture.header(), count: 1, dc_location: '' },
          grpc.status.UNAVAILABLE,
        ],
        [
          fixture.double.pdEndpoints[0],
          { header: { cluster_id: '1' }, count: 1, dc_location: '' },
          grpc.status.FAILED_PRECONDITION,
        ],
        [
          fixture.double.pdEndpoints[0],
          { header: fixture.header(), count: 0, dc_location: '' },
          grpc.status.UNKNOWN,
        ],
      ];
      for (const [endpoint, request, code] of cases) {
        const tso = openTsoStream(endpoint);
        tso.write(request);
        await expect(tso.next(1)).rejects.toMatchObject({ code });
        tso.close();
      }
    });
  });
});

/** A timestamp as PD's clients compose it: physical << 18 | logical. */
function composed(answer: TsoResponse): bigint {
  return (BigInt(answer.timestamp!.physical) << 18n) + BigInt(answer.timestamp!.logical);
}

/** A bidi stream whose answers are collected in order, for `await next(n)`. */
interface CollectingStream<Req, Res> {
  write(message: Req): void;
  next(count: number): Promise<Res[]>;
  close(): void;
}

function collect<Req, Res>(
  call: grpc.ClientDuplexStream<Req, Res>,
  timeoutMs = 2000,
): CollectingStream<Req, Res> {
  const received: Res[] = [];
  let failure: unknown;
  let wake: (() => void) | undefined;
  call.on('data', (message: Res) => {
    received.push(message);
    wake?.();
  });
  call.on('error', (error) => {
    failure = error;
    wake?.();
  });
  return {
    write: (message) => call.write(message),
    async next(count) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (failure) throw failure;
        if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} answers`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return received.splice(0, count);
    },
    close: () => call.cancel(),
  };
}

/** BatchCommands with raw bytes going out, so a test can send a command our protos lack. */
function openBatchStream(address: string): CollectingStream<Buffer, BatchCommandsResponse> {
  const definition = loadTikvProtocol().tikvService.BatchCommands;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const call = client.makeBidiStreamRequest<Buffer, BatchCommandsResponse>(
    definition.path,
    (message) => message,
    (bytes) => definition.responseDeserialize(bytes) as BatchCommandsResponse,
  );
  const stream = collect(call);
  return { ...stream, close: () => (stream.close(), client.close()) };
}

function encodeBatch(message: BatchCommandsRequest): Buffer {
  return loadTikvProtocol().tikvService.BatchCommands.requestSerialize(message);
}

/**
 * Hand-encoded BatchCommandsRequest { requests: [ { field 1: empty message } ], request_ids: [id] }.
 * Field 1 of the Request oneof is TiKV's transactional Get, which the double does not serve.
 */
function unknownCommandMessage(id: number): Buffer {
  const request = Buffer.from([0x0a, 0x00]);
  return Buffer.concat([
    Buffer.from([0x0a, request.length]),
    request,
    Buffer.from([0x10, id]), // request_ids (field 2, varint; id < 128)
  ]);
}

function openTsoStream(address: string): CollectingStream<TsoRequest, TsoResponse> {
  const protocol = loadTikvProtocol();
  const client = new protocol.PdClient(address, grpc.credentials.createInsecure());
  const tsoClient = client as unknown as Record<
    'Tso',
    () => grpc.ClientDuplexStream<TsoRequest, TsoResponse>
  >;
  const stream = collect(tsoClient.Tso());
  return { ...stream, close: () => (stream.close(), client.close()) };
}
