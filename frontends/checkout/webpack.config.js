// Builds the checkout remote into dist/, served by the shop at /remotes/checkout/.
const remoteConfig = require('../webpack.remote.cjs');

module.exports = (_env, argv) =>
  remoteConfig({
    name: 'checkout',
    dir: __dirname,
    mode: argv.mode,
    exposes: {
      // On every page (the header's icon, product cards): small chunks; the panel and the pages load on demand.
      './CartButton': './src/expose/CartButton.ts',
      './AddToCart': './src/expose/AddToCart.ts',
      './BuyNow': './src/expose/BuyNow.ts',
      './CartPanel': './src/expose/CartPanel.ts',
      './Address': './src/expose/Address.ts',
      './Review': './src/expose/Review.ts',
      './OrderSuccess': './src/expose/OrderSuccess.ts',
    },
  });
