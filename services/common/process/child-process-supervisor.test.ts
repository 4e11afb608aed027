import { startSupervisedProcess, stopSupervisedProcesses } from './child-process-supervisor';

// `make run` writes each service's lines to its log as they arrive and closes the logs once every
// process has exited: a process's last lines ("shutting down", "stopped") must be in by then.
test('has every line of a process that prints a burst on SIGTERM before its exit is reported', async () => {
  const lines: string[] = [];
  const script = [
    "process.on('SIGTERM', () => {",
    "  for (let index = 0; index < 5000; index += 1) process.stdout.write('line ' + index + '\\n');",
    // Exits once every line has left this process: what is missing then was lost by the reader.
    "  process.stdout.write('stopped\\n', () => process.exit(0));",
    '});',
    'setInterval(() => {}, 1000);',
    // Only now: the parent sends SIGTERM as soon as it reads this.
    "console.log('ready');",
  ].join('\n');
  const supervised = await startSupervisedProcess({
    name: 'burst',
    command: process.execPath,
    argumentList: ['-e', script],
    environment: process.env,
    isReadyLine: (line) => line === 'ready',
    onLine: (_name, line) => lines.push(line),
  });
  await stopSupervisedProcesses([supervised], 10_000);
  expect(await supervised.exited).toBe(0);
  expect(lines.at(-1)).toBe('stopped');
  expect(lines).toHaveLength(5002);
});
