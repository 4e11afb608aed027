import { Packr } from 'msgpackr';
import { listOf, recordCodec, recordOf, type RecordFields } from './record-codec';
import { StorageConventionError } from './storage-errors';

interface LeaseLike {
  lease_id: string;
  expires_at: string;
  is_stale_lease: boolean;
  accepted_count: number;
  etag: string | null;
  task_list: Array<{ url_hash: string; domain: string }>;
}

const LEASE_FIELDS: RecordFields<LeaseLike> = {
  lease_id: 'text',
  expires_at: 'time',
  is_stale_lease: 'boolean',
  accepted_count: 'integer',
  etag: 'text?',
  task_list: listOf({ url_hash: 'text', domain: 'text' }),
};

const codec = recordCodec<LeaseLike>(LEASE_FIELDS);

const lease: LeaseLike = {
  lease_id: 'l-0123456789abcdef',
  expires_at: '2026-08-15T07:47:52Z',
  is_stale_lease: false,
  accepted_count: 3,
  etag: null,
  task_list: [{ url_hash: 'ab', domain: 'a.example' }],
};

describe('record codec', () => {
  it('reads back what it wrote, smaller than JSON, and in place from an offset', () => {
    const bytes = codec.encode(lease);
    expect(codec.decode(bytes)).toEqual(lease);
    // Every declared field, in declaration order (what JSON.stringify of a read document follows).
    expect(Object.keys(codec.decode(bytes))).toEqual(Object.keys(LEASE_FIELDS));
    expect(Object.keys(codec.decode(bytes).task_list[0])).toEqual(['url_hash', 'domain']);
    expect(bytes.length).toBeLessThan(JSON.stringify(lease).length / 2);
    const framed = Buffer.concat([Buffer.from([9, 9, 9]), bytes]);
    expect(codec.decode(framed, 3)).toEqual(lease);
    // Deterministic: a compare-and-swap's expectation matches the stored bytes.
    expect(codec.encodeForComparison({ ...lease }).equals(bytes)).toBe(true);
  });

  it('stores only the declared fields, whatever object it is handed', () => {
    const withExtras = { ...lease, Extra: 1, extra_field: 'kept nowhere' } as LeaseLike;
    expect(codec.decode(codec.encode(withExtras))).toEqual(lease);
  });

  it('refuses a value of the wrong kind, a missing required field, and a malformed time', () => {
    for (const bad of [
      { ...lease, accepted_count: 1.5 },
      { ...lease, is_stale_lease: 'no' },
      { ...lease, lease_id: null },
      { ...lease, expires_at: '2026-08-15 07:47' },
      { ...lease, task_list: [{ url_hash: 'ab' }] },
    ]) {
      expect(() => codec.encode(bad as unknown as LeaseLike)).toThrow(StorageConventionError);
    }
  });

  it('names the element of a list that it refuses', () => {
    const second = { url_hash: 'cd' } as LeaseLike['task_list'][number];
    expect(() => codec.encode({ ...lease, task_list: [lease.task_list[0], second] })).toThrow(
      'field $.task_list[1].domain is required',
    );
  });

  it('checks its declaration against CONVENTION.md once, when built', () => {
    expect(() => recordCodec<{ isLeased: boolean }>({ isLeased: 'boolean' })).toThrow(/snake_case/);
    expect(() => recordCodec<{ leased: boolean }>({ leased: 'boolean' })).toThrow(/is_/);
    expect(() => recordCodec<{ leased_at: string }>({ leased_at: 'text' })).toThrow(/_at/);
    expect(() => recordCodec<{ timeout: number }>({ timeout: 'integer' })).toThrow(/duration/);
    expect(() =>
      recordCodec<{ tasks: Array<{ url_hash: string }> }>({ tasks: listOf({ url_hash: 'text' }) }),
    ).toThrow(/_list/);
  });

  it('reads rows written before a field was appended (null there) and rows stored as JSON', () => {
    const older = new Packr({ useRecords: false }).pack([
      lease.lease_id,
      lease.expires_at,
      false,
      3,
    ]);
    expect(codec.decode(older)).toEqual({ ...lease, etag: null, task_list: null });
    const json = Buffer.from(JSON.stringify({ ...lease, lease_state: 'gone' }));
    expect(codec.decode(json)).toEqual(lease);
  });

  describe('a nested record (recordOf)', () => {
    interface Mapping {
      page_url_pattern: string;
      content_pointer: string;
      refreshed_at: string | null;
    }
    interface WithMapping extends LeaseLike {
      api_endpoint: Mapping | null;
    }
    // The lease's fields with a record appended, as a shape evolves.
    const nestedCodec = recordCodec<WithMapping>({
      ...LEASE_FIELDS,
      api_endpoint: recordOf<Mapping>({
        page_url_pattern: 'text',
        content_pointer: 'text',
        refreshed_at: 'time?',
      }),
    });
    const mapping: Mapping = {
      page_url_pattern: '^https://a\\.example/(?<id>[0-9]+)$',
      content_pointer: '',
      refreshed_at: null,
    };

    it('reads back the record, or null, in binary and from JSON, and compares deterministically', () => {
      const withMapping: WithMapping = { ...lease, api_endpoint: mapping };
      const bytes = nestedCodec.encode(withMapping);
      expect(nestedCodec.decode(bytes)).toEqual(withMapping);
      expect(nestedCodec.encodeForComparison({ ...withMapping }).equals(bytes)).toBe(true);
      expect(nestedCodec.decode(nestedCodec.encode({ ...lease, api_endpoint: null }))).toEqual({
        ...lease,
        api_endpoint: null,
      });
      const extra = { ...mapping, kept_nowhere: 1 };
      const json = Buffer.from(JSON.stringify({ ...lease, api_endpoint: extra }));
      expect(nestedCodec.decode(json)).toEqual(withMapping);
    });

    it('reads a row written before the record was appended with null there', () => {
      expect(nestedCodec.decode(codec.encode(lease))).toEqual({ ...lease, api_endpoint: null });
    });

    it("refuses a record that is not an object or breaks its own fields' declaration", () => {
      for (const bad of [
        'text',
        [mapping],
        { ...mapping, content_pointer: 7 },
        { ...mapping, page_url_pattern: null },
        { ...mapping, refreshed_at: 'yesterday' },
      ]) {
        expect(() =>
          nestedCodec.encode({ ...lease, api_endpoint: bad } as unknown as WithMapping),
        ).toThrow(StorageConventionError);
      }
      expect(() =>
        nestedCodec.encode({ ...lease, api_endpoint: { ...mapping, content_pointer: 7 } } as never),
      ).toThrow('field $.api_endpoint.content_pointer must be a string');
    });

    it('checks the nested declaration against CONVENTION.md too', () => {
      expect(() =>
        recordCodec<{ api_endpoint: { contentPointer: string } }>({
          api_endpoint: recordOf({ contentPointer: 'text' }),
        }),
      ).toThrow(/snake_case/);
      expect(() =>
        recordCodec<{ endpoint_at: { url: string } }>({ endpoint_at: recordOf({ url: 'text' }) }),
      ).toThrow(/_at/);
    });
  });
});
