// Dates as the back office shows them: India time, day month year and the time.
const format = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' });

/** An epoch-seconds time (or an ISO text) in India time. */
export function when(at: number | string): string {
  const date = typeof at === 'number' ? new Date(at * 1000) : new Date(at);
  return Number.isNaN(date.getTime()) ? String(at) : format.format(date);
}

/** The India date (YYYY-MM-DD) of an epoch-seconds time. */
export function indiaDate(at: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(at * 1000));
}

/** The first (or last) second of an India date, in epoch seconds: a day filter's bounds. */
export function indiaDayEdge(date: string, edge: 'start' | 'end'): number {
  const start = Date.parse(`${date}T00:00:00+05:30`) / 1000;
  return edge === 'start' ? start : start + 86_399;
}
