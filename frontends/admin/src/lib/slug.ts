// A slug proposed from a name (`Brake Discs` → `brake-discs`); staff may change it, the server judges it.
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
