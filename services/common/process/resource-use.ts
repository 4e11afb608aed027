/**
 * What the process (every thread of it) used over a stretch of work, as log fields: its CPU time,
 * the page faults it took and how often the kernel took a core from it. Beside the stretch's wall
 * time these tell a slow start-up's causes apart — CPU it had to wait for (wall time well above
 * CPU time, many involuntary switches), more CPU for the same work (a slower machine, or fresh
 * memory faulted in: minor faults), or reads from disk (major faults).
 */
export interface ResourceUseFields {
  process_cpu_ms: number;
  minor_page_fault_count: number;
  major_page_fault_count: number;
  involuntary_context_switch_count: number;
}

/** The process's use since `before` (a `process.resourceUsage()` taken when the stretch began). */
export function resourceUseSince(before: NodeJS.ResourceUsage): ResourceUseFields {
  const now = process.resourceUsage();
  return {
    process_cpu_ms: Math.round(
      (now.userCPUTime - before.userCPUTime + now.systemCPUTime - before.systemCPUTime) / 1000,
    ),
    minor_page_fault_count: now.minorPageFault - before.minorPageFault,
    major_page_fault_count: now.majorPageFault - before.majorPageFault,
    involuntary_context_switch_count:
      now.involuntaryContextSwitches - before.involuntaryContextSwitches,
  };
}
