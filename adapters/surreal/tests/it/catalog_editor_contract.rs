//! Every `CatalogEditor` suite on every engine (see `engines`), with the shoppers' catalog store, the
//! audit trail and the catalog's changes of the same database.

macro_rules! catalog_editor_suite {
    ($suite:ident) => {
        on_every_engine!(catalog_editor, [catalog_editor, catalog, audit_log, catalog_changes], $suite);
    };
}

marque_contract_tests::for_each_catalog_editor_suite!(catalog_editor_suite);
