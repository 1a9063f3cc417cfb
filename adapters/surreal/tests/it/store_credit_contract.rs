//! Every store credit suite on every engine (see `engines`), each with the order and catalog stores
//! of the same database (credit is spent with the stock hold): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

macro_rules! store_credit_suite {
    ($suite:ident) => {
        on_every_engine!(store_credit, [store_credit, orders, catalog], $suite);
    };
}

marque_contract_tests::for_each_store_credit_suite!(store_credit_suite);
