// Puts the account remote's stylesheet into the page once, when its first module is loaded.
import css from './account.css?raw';

const ID = 'marque-account-styles';

export function injectAccountStyles() {
  if (typeof document === 'undefined' || document.getElementById(ID)) return;
  const style = document.createElement('style');
  style.id = ID;
  style.textContent = css;
  document.head.appendChild(style);
}
