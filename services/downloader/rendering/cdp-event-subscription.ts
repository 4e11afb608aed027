import type { CDPSession } from 'puppeteer-core';

type SessionEventName = Parameters<CDPSession['on']>[0];

/**
 * Listeners attached to a page's CDP session for the length of one render, detached together: a
 * reused page must not keep feeding the previous render's recorders.
 */
export class CdpEventSubscription {
  private readonly detachers: Array<() => void> = [];

  constructor(private readonly session: CDPSession) {}

  on<Event>(eventName: SessionEventName, listener: (event: Event) => void): void {
    const handler = listener as Parameters<CDPSession['on']>[1];
    this.session.on(eventName, handler);
    this.detachers.push(() => this.session.off(eventName, handler));
  }

  detachAll(): void {
    for (const detach of this.detachers.splice(0)) detach();
  }
}
