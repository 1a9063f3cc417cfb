//! Every `GarageStore` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

macro_rules! garage_suite {
    ($suite:ident) => {
        on_every_engine!(garage, garage, $suite);
    };
}

marque_contract_tests::for_each_garage_suite!(garage_suite);
