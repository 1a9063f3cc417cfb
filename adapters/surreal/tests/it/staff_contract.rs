//! Every `StaffStore` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

macro_rules! staff_suite {
    ($suite:ident) => {
        on_every_engine!(staff, staff, $suite);
    };
}

marque_contract_tests::for_each_staff_suite!(staff_suite);
