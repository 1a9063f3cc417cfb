//! Every `AddressStore` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

macro_rules! address_suite {
    ($suite:ident) => {
        on_every_engine!(addresses, addresses, $suite);
    };
}

marque_contract_tests::for_each_address_suite!(address_suite);
