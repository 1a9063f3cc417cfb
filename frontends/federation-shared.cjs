// The one list of modules the shell and the remotes share at run time, each a singleton loaded on demand.
// Keep it short: every entry here is served whole (shared modules are not tree-shaken).

/** @param {Record<string, string>} dependencies the dependencies of the app's package.json */
module.exports = function sharedModules(dependencies) {
  const singleton = (requiredVersion) => ({ singleton: true, requiredVersion, eager: false });
  const shared = {
    react: singleton(dependencies.react),
    'react/jsx-runtime': singleton(dependencies.react),
    'react-dom': singleton(dependencies['react-dom']),
    'react-dom/client': singleton(dependencies['react-dom']),
    wouter: singleton(dependencies.wouter),
    // The language and its catalogue: one instance, so one switch changes the shell and every remote.
    '@marque/i18n': singleton(dependencies['@marque/i18n']),
  };
  // The signed-in customer: one instance, so the header, the login page and every heart agree.
  if (dependencies['@marque/session']) shared['@marque/session'] = singleton(dependencies['@marque/session']);
  // The cart and the checkout choices: one instance, so the header's icon, every Add to cart and the checkout agree.
  if (dependencies['@marque/cart']) shared['@marque/cart'] = singleton(dependencies['@marque/cart']);
  return shared;
};
