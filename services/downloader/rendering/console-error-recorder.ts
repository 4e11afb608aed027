import type { CDPSession, Protocol } from 'puppeteer-core';
import { CdpEventSubscription } from './cdp-event-subscription';
import type { ConsoleError } from './rendered-page';

const MAX_MESSAGE_LENGTH = 1000;

function describeArgument(argument: Protocol.Runtime.RemoteObject): string {
  if (argument.type === 'string') return String(argument.value);
  if (argument.value !== undefined) return JSON.stringify(argument.value);
  return argument.description ?? argument.type;
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, MAX_MESSAGE_LENGTH);
}

/**
 * Collects console_errors for one render. What counts (the contract leaves it open):
 *  - `console.error(…)` calls (Runtime.consoleAPICalled, type "error"), arguments joined by spaces;
 *  - uncaught exceptions and unhandled promise rejections (Runtime.exceptionThrown), first line.
 * What does not: Chromium's own log entries (Log domain) such as "Failed to load resource: 500"
 * — network failures are already in network_log and health_signal, and resources we block on
 * purpose would otherwise show up as errors on every page. console.warn / console.assert are not
 * errors. `source_url` is the top stack frame's script URL (Chromium gives inline code the
 * document URL), null when no script is known.
 * Only execution contexts created after start() count: a reused page's previous document (still
 * alive until the new one commits, unload handlers included) must not leak into this render.
 */
export class ConsoleErrorRecorder {
  private readonly errors: ConsoleError[] = [];
  private readonly subscription: CdpEventSubscription;
  private readonly ourContextIds = new Set<number>();

  constructor(
    session: CDPSession,
    private readonly maxErrorCount = 100,
  ) {
    this.subscription = new CdpEventSubscription(session);
  }

  start(): void {
    this.subscription.on(
      'Runtime.executionContextCreated',
      (event: Protocol.Runtime.ExecutionContextCreatedEvent) => {
        this.ourContextIds.add(event.context.id);
      },
    );
    this.subscription.on(
      'Runtime.consoleAPICalled',
      (event: Protocol.Runtime.ConsoleAPICalledEvent) => {
        if (event.type !== 'error' || !this.ourContextIds.has(event.executionContextId)) return;
        this.add(event.args.map(describeArgument).join(' '), event.stackTrace?.callFrames[0]?.url);
      },
    );
    this.subscription.on(
      'Runtime.exceptionThrown',
      (event: Protocol.Runtime.ExceptionThrownEvent) => {
        const details = event.exceptionDetails;
        if (!this.ourContextIds.has(details.executionContextId ?? -1)) return;
        const message = details.exception?.description ?? details.text;
        this.add(message, details.url || details.stackTrace?.callFrames[0]?.url);
      },
    );
  }

  stop(): void {
    this.subscription.detachAll();
  }

  /** Errors so far (copies). */
  consoleErrors(): ConsoleError[] {
    return this.errors.map((error) => ({ ...error }));
  }

  private add(message: string, sourceUrl: string | undefined): void {
    if (this.errors.length < this.maxErrorCount) {
      this.errors.push({ message: firstLine(message), source_url: sourceUrl || null });
    }
  }
}
