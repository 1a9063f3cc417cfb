// One step of the car choice from the vehicle table: the makes; a make's models; a model's generations; a
// generation's vehicles (engines), whose ids listings' `fits` takes.
import { api, unwrap, type OkBody } from '@marque/api-client';
import { useRequest } from '@marque/ui';

export type VehicleChoice = OkBody<'/api/get/vehicles'>;
export type VehicleName = NonNullable<VehicleChoice['makes']>[number];
export type VehicleGeneration = NonNullable<VehicleChoice['generations']>[number];
export type Vehicle = NonNullable<VehicleChoice['vehicles']>[number];

/** What the next list is asked by: nothing (makes), a make (models), a make and model (generations), a generation. */
export type VehicleStep = { make?: string; model?: string; generation?: string };

export async function getVehicles(step: VehicleStep, signal?: AbortSignal): Promise<VehicleChoice> {
  return unwrap(await api.GET('/api/get/vehicles', { params: { query: step }, signal }));
}

/** The list of `step`; `attempt` asks again after a failure. */
export const useVehicles = (step: VehicleStep, attempt = 0) =>
  useRequest(`vehicles:${JSON.stringify(step)}#${attempt}`, (signal) => getVehicles(step, signal));
