// Builds the catalog remote into dist/, served by the shop at /remotes/catalog/.
const remoteConfig = require('../webpack.remote.cjs');

module.exports = (_env, argv) =>
  remoteConfig({
    name: 'catalog',
    dir: __dirname,
    mode: argv.mode,
    exposes: {
      './Home': './src/expose/Home.ts',
      './Search': './src/expose/Search.ts',
      './Product': './src/expose/Product.ts',
      './Brand': './src/expose/Brand.ts',
      './Category': './src/expose/Category.ts',
      './Subcategory': './src/expose/Subcategory.ts',
      './Garage': './src/expose/Garage.ts',
    },
  });
