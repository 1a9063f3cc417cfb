// What the shell loads as 'account/LoginSuccess'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { LoginSuccessPage as default } from '../features/landing/components/LoginSuccessPage';
