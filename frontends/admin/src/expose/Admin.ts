// What the shell loads as 'admin/Admin' on every /admin page (and nowhere else).
import { injectAdminStyles } from '../styles/inject';

injectAdminStyles();

export { AdminApp as default } from '../App';
