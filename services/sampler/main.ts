import { runService, type RunningService } from '../common/service-host/run-service';
import { runAsProgram } from '../common/service-host/service-main';
import { samplerServiceDefinition, type SamplerDependencies } from './assemble-sampler';

/** Starts the sampler as its own process (see `--help` for flags and environment variables). */
export function startSampler(
  argv?: string[],
  environment: NodeJS.ProcessEnv = process.env,
  dependencies?: SamplerDependencies,
): Promise<RunningService> {
  return runService(samplerServiceDefinition(environment, dependencies), argv, environment);
}

if (require.main === module) runAsProgram('sampler', () => startSampler());
