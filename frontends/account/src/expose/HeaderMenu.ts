// What the shell loads as 'account/HeaderMenu'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { HeaderMenu as default } from '../features/header-menu/components/HeaderMenu';
