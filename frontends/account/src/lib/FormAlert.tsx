// A server's or the shop's message above a form, in red, announced at once.
export function FormAlert({ message }: { message: string | null }) {
  return message ? (
    <p className="form-alert" role="alert">
      {message}
    </p>
  ) : null;
}
