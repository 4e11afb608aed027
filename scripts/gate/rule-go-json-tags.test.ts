import { describeFindings, fixtureFindings, RepositoryCopy } from './gate-test-support';

describe('go-json-tags', () => {
  test('passes wire-name tags, tags of other structs that are contract names, and test files', () => {
    expect(describeFindings(fixtureFindings('go-json-tags', 'pass'))).toEqual([]);
  });

  test('reports a tag off its schema table, a tag that is no contract name, a missing row and a camelCased string', () => {
    const findings = fixtureFindings('go-json-tags', 'fail');
    const file = 'generated/go/demo/model_health_signal.go';
    expect(describeFindings(findings)).toEqual([
      `${file}:3:6 go-json-tags`,
      `${file}:4:32 go-json-tags → has_console_error`,
      `${file}:11:26 go-json-tags → task_count`,
      `${file}:19:14 go-json-tags → worker_id`,
    ]);
    expect(findings[0].message).toBe(
      "struct `HealthSignal` has no json tag for `has_console_error` of CONTRACT.md's " +
        '"#### Schema `HealthSignal`"; the Go client would drop that field',
    );
    expect(findings[1].message).toMatch(
      /^json tag `hasConsoleError` of struct `HealthSignal` is not a field of CONTRACT\.md's "#### Schema `HealthSignal`" \(CONTRACT\.md:10:6\)/,
    );
    expect(findings[2].message).toMatch(
      /^json tag `task_counts` of struct `LeaseQuery` is no field name of CONTRACT\.md/,
    );
    expect(findings[3].message).toMatch(/^string `workerId` is the contract name `worker_id`/);
  });

  test('a json tag changed by hand in the generated Go client fails the gate', () => {
    const repository = new RepositoryCopy();
    try {
      const path = 'generated/go/scheduler/model_lease_task.go';
      const added = repository.findingsAddedBy(() => {
        repository.replace(path, '`json:"min_interval_ms"`', '`json:"minIntervalMs"`');
      });
      expect(describeFindings(added)).toEqual([
        expect.stringMatching(
          /^generated\/go\/scheduler\/model_lease_task\.go:\d+:\d+ go-json-tags$/,
        ),
        expect.stringMatching(
          /^generated\/go\/scheduler\/model_lease_task\.go:\d+:\d+ go-json-tags → min_interval_ms$/,
        ),
      ]);
      expect(added.map((item) => item.message).join('\n')).toContain(
        'json tag `minIntervalMs` of struct `LeaseTask` is not a field of CONTRACT.md\'s "#### Schema `LeaseTask`"',
      );
    } finally {
      repository.remove();
    }
  });
});
