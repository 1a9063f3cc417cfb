// A problem shown in the page, announced at once (in red as an alert; a confirmation as a status);
// `id` ties it to the control it is about.
import { useT } from '@marque/i18n';
import type { Problem } from './problem';

export function ProblemAlert({ problem, id, role = 'alert' }: { problem: Problem | null; id?: string; role?: 'alert' | 'status' }) {
  const messages = useT('messages');
  const t = useT('checkout');
  if (!problem) return null;
  return (
    <p id={id} className={role === 'alert' ? 'form-alert' : 'form-notice'} role={role}>
      {problem.ns === 'messages' ? messages(problem.code) : t(problem.code)}
    </p>
  );
}
