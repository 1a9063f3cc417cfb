//! Every `CatalogStore` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

macro_rules! catalog_suite {
    ($suite:ident) => {
        on_every_engine!(catalog, catalog, $suite);
    };
}

marque_contract_tests::for_each_catalog_suite!(catalog_suite);
