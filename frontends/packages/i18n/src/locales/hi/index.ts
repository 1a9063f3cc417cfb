// The Hindi catalogue: loaded on demand, only when a visitor chooses हिन्दी.
import type { Translation } from '../../catalogue';
import account from './account.json';
import checkout from './checkout.json';
import common from './common.json';
import home from './home.json';
import listing from './listing.json';
import messages from './messages.json';
import product from './product.json';
import shell from './shell.json';

// `satisfies` makes tsc fail when a code has no Hindi text.
const HI = { account, checkout, common, home, listing, messages, product, shell } satisfies Translation;
export default HI;
