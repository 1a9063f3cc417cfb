// Pages for customers only: a visitor who is not signed in is sent to /login.
import type { User } from '@marque/api-client';
import { useSession } from '@marque/session';
import { useEffect } from 'react';
import { useLocation } from 'wouter';

/** The signed-in user, or null while the session is restoring or the visitor is being sent to /login. */
export function useCustomer(): User | null {
  const { status, user } = useSession();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (status === 'anonymous') navigate('/login', { replace: true });
  }, [status, navigate]);
  return status === 'authenticated' ? user : null;
}
