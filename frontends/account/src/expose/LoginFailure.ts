// What the shell loads as 'account/LoginFailure'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { LoginFailurePage as default } from '../features/landing/components/LoginFailurePage';
