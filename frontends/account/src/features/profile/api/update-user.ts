// PATCH /api/update/user/{userId} (multipart): a new name and, optionally, a new picture.
import { formBody, type Answer } from '@marque/api-client';
import { authorizedFetch } from '@marque/session';
import { outcome } from '../../../lib/call';

export function updateUser(userId: string, name: string, image: File | null) {
  const body = formBody('PATCH /api/update/user/{userId}', { name, profile: image });
  return outcome<Answer<'PATCH /api/update/user/{userId}'>>(
    authorizedFetch(`/api/update/user/${encodeURIComponent(userId)}`, { method: 'PATCH', body }),
  );
}
