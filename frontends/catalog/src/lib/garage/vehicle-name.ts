// A vehicle's name from the vehicle table, for a car in the address that the garage does not hold (a shared link's
// `fits`): its generation's vehicles are asked for, and the one of that id named as the garage names its cars.
import { api, unwrap } from '@marque/api-client';
import { carLabel } from '@marque/session';
import { useRequest } from '@marque/ui';

/** `bmw-x5-g05.b57` → `BMW X5 (G05) 3.0d`; null when the table does not know it or cannot be asked. */
export async function vehicleName(id: string, signal?: AbortSignal): Promise<string | null> {
  const dot = id.lastIndexOf('.');
  if (dot <= 0) return null;
  try {
    const answer = unwrap(await api.GET('/api/get/vehicles', { params: { query: { generation: id.slice(0, dot) } }, signal }));
    const vehicle = answer.vehicles?.find((v) => v.id === id);
    return vehicle ? `${vehicle.make} ${carLabel(vehicle)}` : null;
  } catch {
    // The chip then shows the id as the address has it.
    return null;
  }
}

/** The name of vehicle `id` once the table answers; null before, without an id, or for a vehicle it does not know. */
export function useVehicleName(id: string | null): string | null {
  const state = useRequest(`vehicle-name:${id ?? ''}`, (signal) => (id ? vehicleName(id, signal) : Promise.resolve(null)));
  return state.status === 'success' ? state.data : null;
}
