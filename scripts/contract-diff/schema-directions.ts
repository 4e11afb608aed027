import type { OpenApiModel, SpecType } from '../gate/openapi-model';

/*
 * Which way each component schema travels: in a request body (a receiver reads what old senders
 * still send) or in a response (an old reader reads what the new provider sends). The direction
 * decides whether a required or nullable cell may change: a request field may become optional or
 * nullable, a response field required or non-null — each only widens what the other side already
 * handles. A schema reached both ways, or not reached from any operation, is held to both.
 */

export type SchemaDirection = 'request' | 'response';

export type SchemaDirections = ReadonlyMap<string, ReadonlySet<SchemaDirection>>;

/** Directions of every schema reached from an operation of any of the models. */
export function schemaDirections(models: OpenApiModel[]): SchemaDirections {
  const directions = new Map<string, Set<SchemaDirection>>();
  for (const model of models) {
    const visit = (schemaName: string, direction: SchemaDirection): void => {
      const seen = directions.get(schemaName) ?? new Set<SchemaDirection>();
      if (seen.has(direction)) return;
      seen.add(direction);
      directions.set(schemaName, seen);
      for (const property of model.schemas.get(schemaName)?.properties ?? []) {
        referencedSchemas(property.type).forEach((name) => visit(name, direction));
      }
    };
    for (const operation of model.operations) {
      operation.requestBodySchemas.forEach((name) => visit(name, 'request'));
      operation.responseSchemas.forEach((name) => visit(name, 'response'));
    }
  }
  return directions;
}

/** Whether the schema is (or may be) sent in a request: its receivers read what old senders send. */
export function travelsInRequests(directions: SchemaDirections, schemaName: string): boolean {
  return directions.get(schemaName)?.has('request') ?? true;
}

/** Whether the schema is (or may be) answered: old readers expect what they always got. */
export function travelsInResponses(directions: SchemaDirections, schemaName: string): boolean {
  return directions.get(schemaName)?.has('response') ?? true;
}

function referencedSchemas(type: SpecType): string[] {
  switch (type.kind) {
    case 'object':
    case 'enum':
      return type.schema === undefined ? [] : [type.schema];
    case 'array':
      return referencedSchemas(type.items);
    default:
      return [];
  }
}
