// Puts the admin remote's stylesheet into the page once, when its first module is loaded.
import css from './admin.css?raw';

const ID = 'marque-admin-styles';

export function injectAdminStyles() {
  if (typeof document === 'undefined' || document.getElementById(ID)) return;
  const style = document.createElement('style');
  style.id = ID;
  style.textContent = css;
  document.head.appendChild(style);
}
