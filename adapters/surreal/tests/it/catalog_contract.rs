//! Every `CatalogStore` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named. Each runs three times:
//! on the shop's store (the in-process index answering whenever it is in step, ADR 0019), on a
//! store that brings the index in step before every read (`indexed::`: every count and ranking from
//! the index) and on one that never uses it (`unindexed::`: the database's own statements).

macro_rules! catalog_suite {
    ($suite:ident) => {
        on_every_engine!(catalog, catalog, $suite);
    };
}

marque_contract_tests::for_each_catalog_suite!(catalog_suite);

mod indexed {
    macro_rules! catalog_suite_indexed {
        ($suite:ident) => {
            on_every_engine!(catalog, catalog_indexed, $suite);
        };
    }

    marque_contract_tests::for_each_catalog_suite!(catalog_suite_indexed);
}

mod unindexed {
    macro_rules! catalog_suite_unindexed {
        ($suite:ident) => {
            on_every_engine!(catalog, catalog_unindexed, $suite);
        };
    }

    marque_contract_tests::for_each_catalog_suite!(catalog_suite_unindexed);
}
