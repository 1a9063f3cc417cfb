// PATCH /api/update/user/{userId} (multipart): a new name and, optionally, a new picture.
import { authorizedFetch, type UpdateUserOk } from '@marque/session';
import { outcome } from '../../../lib/call';

export function updateUser(userId: string, name: string, image: File | null) {
  const body = new FormData();
  body.set('name', name);
  if (image) body.set('profile', image);
  return outcome<UpdateUserOk>(
    authorizedFetch(`/api/update/user/${encodeURIComponent(userId)}`, { method: 'PATCH', body }),
  );
}
