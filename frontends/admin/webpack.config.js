// Builds the admin remote into dist/, served by the shop at /remotes/admin/ and loaded only on /admin pages.
const remoteConfig = require('../webpack.remote.cjs');

module.exports = (_env, argv) =>
  remoteConfig({
    name: 'admin',
    dir: __dirname,
    mode: argv.mode,
    exposes: {
      './Admin': './src/expose/Admin.ts',
    },
  });
