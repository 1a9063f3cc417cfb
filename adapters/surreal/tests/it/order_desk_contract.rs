//! Every `OrderDesk` suite on every engine (see `engines`), each with the order, catalog and account
//! stores of the same database: `<suite>::mem`, `<suite>::surrealkv` and `<suite>::ws`.

macro_rules! order_desk_suite {
    ($suite:ident) => {
        on_every_engine!(order_desk, [order_desk, orders, catalog, accounts], $suite);
    };
}

marque_contract_tests::for_each_order_desk_suite!(order_desk_suite);
