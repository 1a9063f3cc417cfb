// What the shell loads as 'account/Login'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { LoginPage as default } from '../features/login/components/LoginPage';
