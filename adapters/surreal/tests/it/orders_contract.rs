//! Every `OrderStore` suite on every engine (see `engines`), each with the catalog store of the same
//! database (stock lives on the products): `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.

macro_rules! order_suite {
    ($suite:ident) => {
        on_every_engine!(orders, [orders, catalog], $suite);
    };
}

marque_contract_tests::for_each_order_suite!(order_suite);
