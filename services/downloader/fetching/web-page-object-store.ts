import { randomBytes } from 'node:crypto';
import type { components } from '../../../generated/downloader';
import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { RenderedPage } from '../rendering/rendered-page';

export type WebPageObject = components['schemas']['WebPageObject'];

const DAY_SECONDS = 86_400;

/** 32 lowercase hex characters (CONTRACT.md §八). */
export function newObjectId(): string {
  return randomBytes(16).toString('hex');
}

export function toWebPageObject(objectId: string, page: RenderedPage): WebPageObject {
  return { object_id: objectId, ...page };
}

/** `downloader:web_page_object:{object_id}`, kept `retentionDays` (0 = forever). */
export class WebPageObjectStore {
  constructor(
    private readonly table: KeyspaceTable<WebPageObject>,
    private readonly retentionDays: number,
  ) {}

  async put(object: WebPageObject): Promise<void> {
    await this.table.put(
      object.object_id,
      object,
      this.retentionDays > 0 ? { ttlSeconds: this.retentionDays * DAY_SECONDS } : undefined,
    );
  }

  get(objectId: string): Promise<WebPageObject | undefined> {
    return this.table.get(objectId);
  }
}
