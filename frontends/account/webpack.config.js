// Builds the account remote into dist/: remoteEntry.js + mf-manifest.json, served by the shop at /remotes/account/.
const path = require('node:path');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const commonConfig = require('../webpack.common.cjs');
const sharedModules = require('../federation-shared.cjs');
const { dependencies } = require('./package.json');

module.exports = (_env, argv) => ({
  ...commonConfig({ mode: argv.mode ?? 'production' }),
  entry: {},
  output: {
    path: path.resolve(__dirname, 'dist'),
    // Chunks load from wherever remoteEntry.js came from, so the remote can move to another origin or path.
    publicPath: 'auto',
    filename: '[name].js',
    chunkFilename: '[name].[contenthash:8].js',
    uniqueName: 'marque_account',
    clean: true,
  },
  plugins: [
    new ModuleFederationPlugin({
      name: 'account',
      filename: 'remoteEntry.js',
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
      shared: sharedModules(dependencies),
      dts: false,
      manifest: true,
      // Use the federation runtime the shell already loaded instead of bundling a second copy.
      experiments: { externalRuntime: true, optimization: { target: 'web' } },
    }),
  ],
});
