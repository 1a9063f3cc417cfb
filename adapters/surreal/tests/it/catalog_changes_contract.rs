//! Every `CatalogChanges` suite on every engine (see `engines`), each with the stores of the same
//! database whose writes it follows: `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`, the
//! last one ignored unless a SurrealDB server is named.

on_every_engine!(catalog_changes, [catalog_changes, catalog], catalog_version_moves_with_every_write);
on_every_engine!(
    catalog_changes,
    [catalog_changes, catalog, orders],
    every_stock_change_names_its_products_for_catalog_caches
);
