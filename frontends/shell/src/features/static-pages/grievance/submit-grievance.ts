// POST /api/grievances: the contact page's grievance form, public (no session), limited per client.
import type { Answer, RequestBody } from '@marque/api-client';
import { jsonBody, outcome } from '@marque/session';

export type GrievanceFields = RequestBody<'POST /api/grievances'>;

export function submitGrievance(fields: GrievanceFields) {
  return outcome<Answer<'POST /api/grievances'>>(fetch('/api/grievances', jsonBody('POST /api/grievances', fields)));
}
