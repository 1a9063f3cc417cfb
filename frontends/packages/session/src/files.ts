// Files the API answers (an invoice or credit note as a PDF, a CSV report): the body as a Blob when the answer is
// one of the type asked for, and saving one under a name through a temporary blob URL and a download link. Its own
// entry (`@marque/session/files`), outside the singleton every page loads: only the pages that download use it.

/** The body of `answer` when it succeeds with media type `type`, else null (a refusal, the network, another type). */
export async function fileOf(answer: Promise<Response>, type: string): Promise<Blob | null> {
  try {
    const response = await answer;
    const answered = response.headers.get('content-type') ?? '';
    if (!response.ok || !answered.startsWith(type)) return null;
    return await response.blob();
  } catch {
    return null;
  }
}

/** Saves `blob` as `filename` through a temporary blob URL and a download link. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser the time to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
