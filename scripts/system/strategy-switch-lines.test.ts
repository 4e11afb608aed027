import { strategySwitchLineOf } from './strategy-switch-lines';

const logLine = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 30, service: 'scheduler', ...fields });

describe('make run: the render ↔ api switch line', () => {
  it('turns the scheduler’s switch log line into a line for the watcher', () => {
    expect(
      strategySwitchLineOf(
        logLine({
          domain: '127.0.0.5',
          render_strategy: 'api',
          msg: 'domain now fetched through its api endpoint (rendered now and then for its links)',
        }),
        300,
      ),
    ).toBe(
      'scheduler: 127.0.0.5 switched render → api — the sampler verified its JSON endpoint; its pages are now fetched through it, and rendered again every 300 s to keep their links',
    );
    expect(
      strategySwitchLineOf(
        logLine({ domain: '127.0.0.5', render_strategy: 'render', msg: 'domain now rendered' }),
        300,
      ),
    ).toMatch(/127\.0\.0\.5 switched api → render/);
  });

  it('ignores every other line', () => {
    expect(strategySwitchLineOf('plain text', 300)).toBeUndefined();
    expect(strategySwitchLineOf('{"render_strategy": "api", broken', 300)).toBeUndefined();
    expect(
      strategySwitchLineOf(logLine({ msg: 'lease issued', render_strategy: 'api' }), 300),
    ).toBeUndefined();
  });
});
