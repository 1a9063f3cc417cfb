// A problem shown in the page, in red, announced at once; `id` ties it to the control it is about.
import { useT } from '@marque/i18n';
import type { Problem } from './problem';

export function ProblemAlert({ problem, id }: { problem: Problem | null; id?: string }) {
  const messages = useT('messages');
  const t = useT('checkout');
  if (!problem) return null;
  return (
    <p id={id} className="form-alert" role="alert">
      {problem.ns === 'messages' ? messages(problem.code) : t(problem.code)}
    </p>
  );
}
