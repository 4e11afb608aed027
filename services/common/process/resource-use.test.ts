import { resourceUseSince } from './resource-use';

describe('resourceUseSince', () => {
  it('counts the CPU time and the fresh pages a stretch of work used', () => {
    const before = process.resourceUsage();
    // ~64 MiB touched afresh, and some CPU spent on it.
    const pages = Buffer.alloc(64 * 1024 * 1024, 1);
    let sum = 0;
    for (let index = 0; index < pages.length; index += 4096) sum += pages[index];
    const use = resourceUseSince(before);
    expect(sum).toBe(pages.length / 4096);
    expect(use.process_cpu_ms).toBeGreaterThan(0);
    expect(use.minor_page_fault_count).toBeGreaterThan(1000);
    expect(use.major_page_fault_count).toBeGreaterThanOrEqual(0);
    expect(use.involuntary_context_switch_count).toBeGreaterThanOrEqual(0);
  });

  it('reports nothing used for no work', () => {
    const use = resourceUseSince(process.resourceUsage());
    expect(use.major_page_fault_count).toBe(0);
    expect(use.process_cpu_ms).toBeLessThan(50);
  });
});
