// What the shell loads as 'catalog/Garage' when the header's "My garage" opens: the panel and its own stylesheet
// only (it may open on a page that is not the catalog's).
import css from '../styles/garage.css?raw';
import { injectSheet } from '../styles/sheet';

injectSheet('marque-garage-styles', css);

export { GaragePanel as default } from '../features/garage/components/GaragePanel';
