// Builds the account remote into dist/, served by the shop at /remotes/account/.
const remoteConfig = require('../webpack.remote.cjs');

module.exports = (_env, argv) =>
  remoteConfig({
    name: 'account',
    dir: __dirname,
    mode: argv.mode,
    exposes: {
      './Login': './src/expose/Login.ts',
      './LoginSuccess': './src/expose/LoginSuccess.ts',
      './LoginFailure': './src/expose/LoginFailure.ts',
      './Profile': './src/expose/Profile.ts',
      './Wishlist': './src/expose/Wishlist.ts',
      './OrderHistory': './src/expose/OrderHistory.ts',
      './RenderInvoice': './src/expose/RenderInvoice.ts',
      './HeaderMenu': './src/expose/HeaderMenu.ts',
      './WishlistHeart': './src/expose/WishlistHeart.ts',
    },
  });
