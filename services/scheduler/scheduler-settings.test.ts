import { parseServiceConfig } from '../common/config/service-config';
import { frontierSettingsOf, SCHEDULER_SETTINGS } from './scheduler-settings';

function parse(argv: string[], environment: NodeJS.ProcessEnv = {}) {
  return parseServiceConfig(
    'scheduler',
    ['node', 'scheduler', '--token', 'a-token-of-16-characters', ...argv],
    environment,
    SCHEDULER_SETTINGS,
  ).settings;
}

describe('scheduler settings', () => {
  it('takes a flag over a variable over the default', () => {
    expect(parse([]).domainInFlightCap).toBe(2);
    expect(parse([], { SCHEDULER_DOMAIN_IN_FLIGHT_CAP: '4' }).domainInFlightCap).toBe(4);
    expect(
      parse(['--domain-in-flight-cap', '7'], { SCHEDULER_DOMAIN_IN_FLIGHT_CAP: '4' })
        .domainInFlightCap,
    ).toBe(7);
    expect(parse([], { DOWNLOADER_TOKEN: 'secret' }).downloaderToken).toBe('secret');
  });

  it('refuses a value out of range, naming the flag and the variable', () => {
    expect(() => parse(['--health-xhr-error-ratio', '1.5'])).toThrow(
      '--health-xhr-error-ratio / SCHEDULER_HEALTH_XHR_ERROR_RATIO must be a number from 0 to 1, got "1.5"',
    );
    expect(() => parse([], { SCHEDULER_TASK_TIMEOUT_MS: '2.5' })).toThrow(/must be a whole number/);
  });

  it('maps onto the frontier settings', () => {
    const settings = frontierSettingsOf(parse(['--max-attempt-count', '5']));
    expect(settings.recrawl.maxAttemptCount).toBe(5);
    expect(settings.taskTimeoutMs).toBe(30000);
    expect(settings.health.xhrThrottledRatio).toBe(0.3);
    expect(settings.apiLinkRenderIntervalSeconds).toBe(604_800); // 7 days
  });

  it('takes an api link-render interval from 0 (render every time) up, and refuses a negative one', () => {
    const fromEnvironment = parse([], { SCHEDULER_API_LINK_RENDER_INTERVAL_SECONDS: '0' });
    expect(frontierSettingsOf(fromEnvironment).apiLinkRenderIntervalSeconds).toBe(0);
    expect(parse(['--api-link-render-interval-seconds', '3600']).apiLinkRenderIntervalSeconds).toBe(
      3600,
    );
    expect(() => parse(['--api-link-render-interval-seconds', '-1'])).toThrow(
      /--api-link-render-interval-seconds \/ SCHEDULER_API_LINK_RENDER_INTERVAL_SECONDS must be a whole number from 0/,
    );
  });
});
