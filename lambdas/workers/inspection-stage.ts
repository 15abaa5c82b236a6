import { containerFromEnvironment } from '../composition/container.js';
import { runStageAction } from '../domain/inspections/pipeline.js';
import type { Services } from '../domain/ports/services.js';
import { StageActionSchema } from '../schemas/inspection-stage.js';

/**
 * The stage worker: what every lambda:invoke task of the inspection state machine calls, on AWS
 * (this Lambda) and locally (the local orchestrator calls `handleStageAction` in process).
 * A thrown error fails the task, which the state machine catches.
 */
export async function handleStageAction(services: Services, payload: unknown): Promise<Record<string, unknown>> {
  const action = StageActionSchema.parse(payload);
  return runStageAction(services, action);
}

export async function handler(event: unknown): Promise<Record<string, unknown>> {
  return handleStageAction(containerFromEnvironment(), event);
}
