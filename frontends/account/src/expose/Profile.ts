// What the shell loads as 'account/Profile'.
import { injectAccountStyles } from '../styles/inject';

injectAccountStyles();

export { ProfilePage as default } from '../features/profile/components/ProfilePage';
