import type { components } from '../../../generated/scheduler';
import openApiDocument from '../../../generated/scheduler/openapi.json';
import { ContractFieldPicker } from '../../common/contract-runtime/contract-field-picker';
import type { OpenApiDocument } from '../../common/contract-runtime/openapi-document';

type Schemas = components['schemas'];

const picker = new ContractFieldPicker(openApiDocument as unknown as OpenApiDocument);

/**
 * Request bodies as the frontier receives them: reduced to the fields the contract defines. The
 * router accepted (and counted) any unknown field; none of them reaches the frontier, so none can
 * be stored — a rule item with `"Extra": 1` is kept without it (CONTRACT.md §五, unknown fields).
 */
export const contractFieldsOf = {
  rulesRequest: picker.picker<Schemas['RulesRequest']>('RulesRequest'),
  seedsRequest: picker.picker<Schemas['SeedsRequest']>('SeedsRequest'),
  reportRequest: picker.picker<Schemas['ReportRequest']>('ReportRequest'),
};
