// Endpoint 7: instance-wide calculated-field statistics.
import type { Transport } from './http.js';
import type { CalculatedFieldStatistics } from './types.js';

export function getCalculatedFieldStatistics(transport: Transport): Promise<CalculatedFieldStatistics> {
  return transport.getJson<CalculatedFieldStatistics>({
    operation: 'getCalculatedFieldStatistics',
    method: 'GET',
    path: '/api/query/v1/functions/statistics',
  });
}
